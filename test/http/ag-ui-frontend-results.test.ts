import { HttpAgent } from '@ag-ui/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.ts';
import type { ChatRequest } from '../../src/core/index.ts';
import { agUiHandler } from '../../src/ag-ui/index.ts';
import type { RunAgentInput } from '@ag-ui/core';
import { agUiFrontend } from '../../src/http/ag-ui-frontend.ts';
import { AgUiFrontendResults } from '../../src/http/ag-ui-frontend-results.ts';
import type { AnyTool, ToolContext } from '../../src/tools/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import type { Listening } from './support/listen.ts';
import { serveFetch } from './support/serve-fetch.ts';

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const tools = [
  { name: 'renderChart', description: 'Draws a chart.', parameters: { type: 'object', properties: {} } },
];
/** Every thread's model calls the page's tool with the same call id (as providers that number calls do), then says what it got. */
const turn = (request: ChatRequest) => {
  const last = typeof request.messages === 'string' ? undefined : request.messages.at(-1);
  return last?.role === 'tool'
    ? { text: `got ${typeof last.content === 'string' ? last.content : JSON.stringify(last.content)}` }
    : { toolCalls: [{ id: 'call_1', name: 'renderChart', arguments: {} }] };
};

describe('agUiHandler: a front-end tool’s result answers its own thread’s call only (R10)', () => {
  it('threads of two actors whose calls share an id, answered at the same moment, each get their own result', async () => {
    const model = scriptedModel(Array.from({ length: 40 }, () => turn));
    const handle = agUiHandler(new Agent({ model }), {
      actor: (request) => ({ id: request.headers.get('x-user') ?? 'anonymous' }),
    });
    const server = await serveFetch(handle);
    servers.push(server);
    for (let round = 0; round < 5; round++) {
      const clients = ['alice', 'bob'].map((user) => {
        const client = new HttpAgent({
          url: server.url,
          threadId: `${user}-${round}`,
          headers: { 'x-user': user },
        });
        client.addMessage({ id: `u-${user}`, role: 'user', content: 'Draw it' });
        return { user, client };
      });
      await Promise.all(clients.map(({ client }) => client.runAgent({ tools })));
      for (const { user, client } of clients)
        client.addMessage({
          id: `t-${user}`,
          role: 'tool',
          toolCallId: 'call_1',
          content: `${user}'s chart`,
        });
      const answers = await Promise.all(clients.map(({ client }) => client.runAgent({ tools })));
      expect(answers.map((answer) => answer.result)).toEqual(["got alice's chart", "got bob's chart"]);
    }
  });

  it('a result posted for thread A’s call is not what thread B’s call with the same id reads', async () => {
    const agent = new Agent({ model: scriptedModel([]) });
    const results = new AgUiFrontendResults();
    const inputOf = (threadId: string): RunAgentInput => ({
      threadId,
      runId: `run-${threadId}`,
      messages: [],
      tools,
      context: [],
      state: {},
      forwardedProps: {},
    });
    const toolOf = (threadId: string, actor: string) => {
      const tools = agUiFrontend(agent, inputOf(threadId), results, { id: actor }).agent.options.tools;
      const tool = (tools as readonly AnyTool[]).find((each) => each.name === 'renderChart');
      return tool as unknown as { execute(args: object, context: ToolContext): unknown };
    };
    const call = (actor: string) => ({
      signal: new AbortController().signal,
      actor: { id: actor },
      toolCallId: 'call_1',
    });
    // Alice's page posted her result; before her run reads it, Bob's run's call with the same id executes.
    results.set({ threadId: 'thread-a', actor: 'alice', toolCallId: 'call_1' }, "alice's chart");
    expect(await toolOf('thread-b', 'bob').execute({}, call('bob'))).toBe('');
    expect(await toolOf('thread-a', 'mallory').execute({}, call('mallory'))).toBe('');
    expect(await toolOf('thread-a', 'alice').execute({}, call('alice'))).toBe("alice's chart");
  });
});

describe('AgUiFrontendResults', () => {
  it('keys a result by thread, actor and call: another thread or actor with the same call id gets nothing', () => {
    const results = new AgUiFrontendResults();
    results.set({ threadId: 'a', actor: 'alice', toolCallId: 'call_1' }, 'for a');
    expect(results.take({ threadId: 'b', actor: 'bob', toolCallId: 'call_1' })).toBeUndefined();
    expect(results.take({ threadId: 'a', actor: 'bob', toolCallId: 'call_1' })).toBeUndefined();
    expect(results.take({ threadId: 'a', actor: 'alice', toolCallId: 'call_1' })).toBe('for a');
    expect(results.take({ threadId: 'a', actor: 'alice', toolCallId: 'call_1' })).toBeUndefined();
  });

  it('holds at most `max` results, and none longer than `ttlMs`', () => {
    let now = 0;
    const results = new AgUiFrontendResults({ max: 3, ttlMs: 1_000, now: () => now });
    for (let i = 0; i < 10; i++)
      results.set({ threadId: `t${i}`, actor: undefined, toolCallId: 'c' }, `r${i}`);
    expect(results.size).toBe(3);
    expect(results.take({ threadId: 't0', actor: undefined, toolCallId: 'c' })).toBeUndefined();
    expect(results.take({ threadId: 't9', actor: undefined, toolCallId: 'c' })).toBe('r9');
    now = 1_001;
    expect(results.take({ threadId: 't8', actor: undefined, toolCallId: 'c' })).toBeUndefined();
    results.set({ threadId: 'x', actor: undefined, toolCallId: 'c' }, 'x');
    expect(results.size).toBe(1);
  });
});
