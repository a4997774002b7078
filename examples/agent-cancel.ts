/**
 * Cancellation: Ctrl-C (here sent by the example itself once the slow tool has started) aborts the
 * run's signal, which cancels the model request and every running tool (`ctx.signal`), and the
 * session is left exactly as it was. Offline (a scripted model plays the model's part).
 *
 *   npx node --conditions=rxagent-source examples/agent-cancel.ts
 */
import { Agent, defineTool, memorySessionStore } from 'rxagent';
import { scriptedModel } from 'rxagent/testing';
import { z } from 'zod';

const search = defineTool({
  name: 'search',
  description: 'A slow search.',
  input: z.object({ query: z.string() }),
  execute: ({ query }, { signal }) =>
    new Promise((resolve, reject) => {
      console.log(`searching for "${query}"…`);
      process.kill(process.pid, 'SIGINT'); // the user gives up
      const timer = setTimeout(() => resolve({ hits: 3 }), 30_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        console.log('search cancelled by its signal');
        reject(signal.reason);
      });
    }),
});

const sessions = memorySessionStore();
const agent = new Agent({
  model: scriptedModel([
    { toolCalls: [{ name: 'search', arguments: { query: 'rxjs' } }] },
    { text: 'Found 3.' },
  ]),
  tools: [search],
  sessions,
});

const controller = new AbortController();
process.once('SIGINT', () => controller.abort(new Error('cancelled by Ctrl-C')));
try {
  await agent.chat('Search rxjs.', { sessionId: 'demo', signal: controller.signal });
} catch (error) {
  console.log(`run ended: ${(error as Error).message}`);
}
console.log(`session demo after the cancelled run: ${JSON.stringify(await sessions.get('demo'))}`);
