import { HttpAgent } from '@ag-ui/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.ts';
import type { Message } from '../../src/core/index.ts';
import { agUiHandler } from '../../src/ag-ui/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { memorySessionStore } from '../../src/sessions/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { defineTool } from '../../src/tools/index.ts';
import type { Listening } from './support/listen.ts';
import { serveFetch } from './support/serve-fetch.ts';

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const transfers: string[] = [];
const transfer = defineTool({
  name: 'transfer',
  description: 'Moves money.',
  input: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }, { actor }) => {
    transfers.push(`${amount} as ${actor?.id}`);
    return 'done';
  },
});
/** A client of the endpoint acting as `user` (the server reads the actor from x-user). */
const clientOf = (url: string, user: string, threadId: string, initialState?: Record<string, unknown>) =>
  new HttpAgent({ url, threadId, headers: { 'x-user': user }, ...(initialState ? { initialState } : {}) });
const actorOf = (request: Request) => ({ id: request.headers.get('x-user') ?? 'anonymous' });

describe('agUiHandler and the front end (CopilotKit) inputs (finding 4)', () => {
  it('offers the front end tools to the model, parks at their call, and goes on with the client result', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'call_c', name: 'renderChart', arguments: { items: ['apple'] } }] },
      { text: 'Here is your chart.' },
    ]);
    const server = await serveFetch(
      agUiHandler(new Agent({ model, system: 'Be brief.' }), { actor: actorOf }),
    );
    servers.push(server);
    const client = clientOf(server.url, 'ann', 'thread-f', { cart: ['apple'] });
    client.addMessage({ id: 'u1', role: 'user', content: 'Show my cart as a chart' });
    const tools = [
      {
        name: 'renderChart',
        description: 'Draws a chart on the page.',
        parameters: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } },
      },
    ];
    const context = [{ description: "The user's name", value: 'Ann Example' }];
    const events: string[] = [];
    const first = await client.runAgent(
      { tools, context },
      { onEvent: ({ event }) => void events.push(event.type) },
    );
    expect(events).toContain('STATE_SNAPSHOT');
    expect(events).toContain('TOOL_CALL_START');
    expect(first.newMessages.at(-1)).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'call_c' }] });
    const request = model.requests[0]!;
    expect(request.tools?.map((tool) => tool.name)).toEqual(['renderChart']);
    expect(request.system).toContain('Be brief.');
    expect(request.system).toContain('Ann Example');
    expect(request.system).toContain('{"cart":["apple"]}');
    // The page ran the tool: its result goes back as a tool message, and the run goes on.
    client.addMessage({ id: 't1', role: 'tool', toolCallId: 'call_c', content: 'chart drawn' });
    const second = await client.runAgent({ tools, context });
    expect(second.result).toBe('Here is your chart.');
    const seen = model.requests[1]!.messages as readonly Message[];
    expect(seen.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_c', content: 'chart drawn' });
  });
});

describe('agUiHandler: threads and interrupts belong to their actor (finding 5)', () => {
  it('refuses a resume from another actor or thread, and another actor on a thread it does not own', async () => {
    transfers.length = 0;
    const model = scriptedModel([
      { toolCalls: [{ id: 'call_t', name: 'transfer', arguments: { amount: 500 } }] },
      { text: 'Sent.' },
      { text: 'never' },
    ]);
    const sessions = memorySessionStore();
    const agent = new Agent({ model, tools: [transfer], sessions });
    const server = await serveFetch(agUiHandler(agent, { actor: actorOf, runs: new RunRegistry() }));
    servers.push(server);
    const alice = clientOf(server.url, 'alice', 'thread-a');
    alice.addMessage({ id: 'u1', role: 'user', content: 'Send 500, my PIN is 1234' });
    await alice.runAgent();
    const [interrupt] = alice.pendingInterrupts;
    expect(interrupt).toBeDefined();

    const mallory = clientOf(server.url, 'mallory', 'thread-m');
    const errors: string[] = [];
    const onRunErrorEvent = ({ event }: { event: { code?: string } }) => void errors.push(event.code ?? '');
    await mallory
      .runAgent(
        { resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }] },
        { onRunErrorEvent },
      )
      .catch(() => undefined);
    const onAlicesThread = clientOf(server.url, 'mallory', 'thread-a');
    onAlicesThread.addMessage({ id: 'u9', role: 'user', content: 'What is my PIN?' });
    await onAlicesThread.runAgent(undefined, { onRunErrorEvent }).catch(() => undefined);
    expect(errors).toEqual(['interrupt_not_found', 'thread_not_found']);
    expect(transfers).toEqual([]);
    expect(model.requests).toHaveLength(1); // the model never saw mallory's request

    const approved = await alice.runAgent({
      resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }],
    });
    expect(approved.result).toBe('Sent.');
    expect(transfers).toEqual(['500 as alice']);
  });
});

describe('agUiHandler: parallel approvals (finding 19)', () => {
  it('asks for every approval of a step in one interrupt outcome, each with expiresAt, and resumes them together', async () => {
    transfers.length = 0;
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'call_a', name: 'transfer', arguments: { amount: 1 } },
          { id: 'call_b', name: 'transfer', arguments: { amount: 2 } },
        ],
      },
      { text: 'Both handled.' },
    ]);
    const server = await serveFetch(
      agUiHandler(new Agent({ model, tools: [transfer] }), { actor: actorOf, pauseMs: 60_000 }),
    );
    servers.push(server);
    const client = clientOf(server.url, 'ann', 'thread-p');
    client.addMessage({ id: 'u1', role: 'user', content: 'Pay both' });
    const before = Date.now();
    await client.runAgent();
    const interrupts = client.pendingInterrupts;
    expect(interrupts.map((i) => i.toolCallId)).toEqual(['call_a', 'call_b']);
    for (const { expiresAt } of interrupts) {
      const at = Date.parse(expiresAt ?? '');
      expect(at).toBeGreaterThanOrEqual(before + 60_000);
      expect(at).toBeLessThan(Date.now() + 61_000);
    }
    const done = await client.runAgent({
      resume: [
        { interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true } },
        { interruptId: interrupts[1]!.id, status: 'cancelled' },
      ],
    });
    expect(done.result).toBe('Both handled.');
    expect(transfers).toEqual(['1 as ann']);
  });
});
