import { interval, map, take } from 'rxjs';
import { z } from 'zod';
import { SecurityPolicy } from '../../src/security/index.ts';
import { defineTool, memoryAuditStore, ToolRegistry } from '../../src/tools/index.ts';

/** A registry to serve in tests: arithmetic, a progress-reporting tool, a staff-only tool, a denied one. */
export function servedRegistry() {
  const aborted: string[] = [];
  const audit = memoryAuditStore();
  const registry = new ToolRegistry({ policy: new SecurityPolicy({ deny: ['forbidden'] }), audit });
  registry.register(
    defineTool({
      name: 'add',
      description: 'Adds two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => ({ sum: a + b }),
    }),
  );
  registry.register(
    defineTool({
      name: 'count',
      description: 'Counts to n, reporting each step.',
      input: z.object({ n: z.number().int().min(1), everyMs: z.number().int().min(1) }),
      execute: ({ n, everyMs }, ctx) => {
        ctx.signal.addEventListener('abort', () => aborted.push(ctx.toolCallId), { once: true });
        return interval(everyMs).pipe(
          take(n),
          map((i) => (i + 1 === n ? { counted: n } : `step ${i + 1}`)),
        );
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'payroll',
      description: 'Staff only.',
      input: z.object({}),
      authorize: (actor) => actor?.roles?.includes('staff') === true,
      execute: (_args, ctx) => ({ actor: ctx.actor?.id }),
    }),
  );
  registry.register(
    defineTool({
      name: 'forbidden',
      description: 'Denied by policy.',
      input: z.object({}),
      execute: () => 'no',
    }),
  );
  return { registry, aborted, audit };
}
