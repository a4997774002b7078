/**
 * Serving a ToolRegistry over MCP: every call goes through strict validation, the security policy,
 * authorization and the audit trail. Over stdio by default; `--http` serves Streamable HTTP on
 * 127.0.0.1 (a free port, printed) for both protocol revisions.
 *
 *   npx node --conditions=rxagent-source examples/mcp/serve-registry.ts [--http]
 */
import { interval, map, take } from 'rxjs';
import { z } from 'zod';
import { defineTool, SecurityPolicy, ToolRegistry } from 'rxagent';
import { serveMcp } from 'rxagent/mcp';

const tools = new ToolRegistry({ policy: new SecurityPolicy({ deny: ['internal_*'] }) });
tools.register(
  defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => ({ sum: a + b }),
  }),
);
tools.register(
  defineTool({
    name: 'countdown',
    description: 'Counts down from n, one step every 20 ms (each step is a progress notification).',
    input: z.object({ n: z.number().int().min(1).max(100) }),
    execute: ({ n }) =>
      interval(20).pipe(
        take(n),
        map((i) => (i + 1 === n ? 'liftoff' : `${n - i - 1}…`)),
      ),
  }),
);

const info = { name: 'rxagent-example', version: '1.0.0' };
if (process.argv.includes('--http')) {
  const server = await serveMcp(tools, { ...info, http: { port: 0 } });
  console.log(`listening on ${server.url}`);
  process.once('SIGTERM', () => void server.close());
} else {
  await serveMcp(tools, { ...info, transport: 'stdio' });
}
