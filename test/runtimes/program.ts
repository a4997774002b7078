/**
 * The one program every runtime runs (browser, Deno, Bun, workerd, the oldest Node): an `Agent` on
 * `openaiCompatible` with one zod tool, against the scripted server at `baseURL`. It returns what
 * it saw, so each runtime's test asserts the same facts.
 */
import { Agent, defineTool, fileSessionStore, memoryAuditStore, ToolRegistry } from 'rxagent';
import { openaiCompatible } from 'rxagent/openai';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';

export interface ProgramReport {
  readonly text: string;
  readonly events: readonly string[];
  readonly toolResult: unknown;
  readonly auditValid: boolean;
  readonly auditEntries: number;
  /** What using a Node-only piece (a file session store) gives: `ran`, or the error's name. */
  readonly nodeOnly: string;
}

export async function runProgram(baseURL: string): Promise<ProgramReport> {
  let toolResult: unknown;
  const add = defineTool({
    name: 'add',
    description: 'Adds two integers.',
    input: z.object({ a: z.number().int(), b: z.number().int() }),
    execute: ({ a, b }) => (toolResult = { sum: a + b }),
  });
  const audit = memoryAuditStore({ key: 'runtime-test-key' });
  const tools = new ToolRegistry({ audit }).register(add);
  const agent = new Agent({ model: openaiCompatible('scripted', { baseURL }), tools });
  const events = await lastValueFrom(agent.run('What is 2 + 3?').pipe(toArray()));
  const done = events.find((event) => event.type === 'agent-completed');
  const check = await audit.verify();
  const nodeOnly = await fileSessionStore({ dir: '/nonexistent/rxagent-runtime-probe' })
    .get('s-1')
    .then(
      () => 'ran',
      (error: unknown) => (error instanceof Error ? error.name : String(error)),
    );
  return {
    text: done?.type === 'agent-completed' ? done.result.text : '',
    events: [...new Set(events.map((event) => event.type))],
    toolResult,
    auditValid: check.ok,
    auditEntries: check.entries,
    nodeOnly,
  };
}
