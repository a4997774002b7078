import { HttpAgent, verifyEvents } from '@ag-ui/client';
import { type BaseEvent, EventType } from '@ag-ui/core';
import { from, lastValueFrom, type Observable, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.ts';
import { type Message, RxAgentError } from '../../src/core/index.ts';
import { type AgUiEvent, agUiHandler, toAgUiEvents } from '../../src/ag-ui/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { memorySessionStore } from '../../src/sessions/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { defineTool } from '../../src/tools/index.ts';
import type { Listening } from './support/listen.ts';
import { serveFetch } from './support/serve-fetch.ts';

const deleted: string[] = [];
const deleteFile = defineTool({
  name: 'delete_file',
  description: 'Deletes a file.',
  input: z.object({ path: z.string() }),
  needsApproval: true,
  execute: ({ path }) => {
    deleted.push(path);
    return { deleted: path };
  },
});
const getTime = defineTool({
  name: 'get_time',
  description: 'The time.',
  input: z.object({}),
  execute: () => '12:00',
});

/** The AG-UI client's own check of event order (every start ended, nothing after RUN_FINISHED...). */
type ClientObservable = Parameters<ReturnType<typeof verifyEvents>>[0];
const verified = (events$: Observable<AgUiEvent>): Promise<AgUiEvent[]> => {
  // @ag-ui/client carries its own copy of rxjs: its Observable type is not ours, the protocol is.
  const checked = verifyEvents(false)(events$ as unknown as ClientObservable);
  return lastValueFrom(from(checked as unknown as Observable<AgUiEvent>).pipe(toArray()));
};

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('toAgUiEvents', () => {
  it('(the harness) AG-UI verification rejects a malformed sequence', async () => {
    const malformed = from<AgUiEvent[]>([
      { type: EventType.RUN_STARTED, threadId: 't', runId: 'r' },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'm', delta: 'x' },
    ]);
    await expect(verified(malformed)).rejects.toThrow();
  });

  it('maps a run with reasoning, text and a tool call to events AG-UI verifies', async () => {
    const agent = new Agent({
      model: scriptedModel([
        { reasoning: ['Need ', 'the time.'], text: 'Checking. ', toolCalls: [{ name: 'get_time' }] },
        { text: ['It is ', '12:00.'] },
      ]),
      tools: [getTime],
    });
    const events = await verified(agent.run('Time?').pipe(toAgUiEvents({ threadId: 't1', runId: 'r1' })));
    expect(events.map((event) => event.type)).toEqual([
      EventType.RUN_STARTED,
      EventType.STEP_STARTED,
      EventType.REASONING_START,
      EventType.REASONING_MESSAGE_START,
      EventType.REASONING_MESSAGE_CONTENT,
      EventType.REASONING_MESSAGE_CONTENT,
      EventType.REASONING_MESSAGE_END,
      EventType.REASONING_END,
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
      EventType.TOOL_CALL_START,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_END,
      EventType.STEP_FINISHED,
      EventType.TOOL_CALL_RESULT,
      EventType.STEP_STARTED,
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
      EventType.STEP_FINISHED,
      EventType.RUN_FINISHED,
    ]);
    expect(events.at(-1)).toMatchObject({
      threadId: 't1',
      runId: 'r1',
      result: 'It is 12:00.',
      outcome: { type: 'success' },
    });
    expect(events.find((event) => event.type === EventType.TOOL_CALL_RESULT)).toMatchObject({
      content: '12:00',
    });
  });

  it('ends with RUN_ERROR (not an error notification) when the run fails, closing what is open', async () => {
    const agent = new Agent({
      model: scriptedModel([{ text: ['Part'], error: new RxAgentError('model broke', 'broken') }]),
      stepRetries: 0,
    });
    const events = await verified(agent.run('Hi').pipe(toAgUiEvents({ threadId: 't', runId: 'r' })));
    expect(events.slice(-3).map((event) => event.type)).toEqual([
      EventType.TEXT_MESSAGE_END,
      EventType.STEP_FINISHED,
      EventType.RUN_ERROR,
    ]);
    expect(events.at(-1)).toMatchObject({ message: 'model broke', code: 'broken' });
  });

  it('ends with an interrupt outcome at an approval, unsubscribing from the run', async () => {
    const agent = new Agent({
      model: scriptedModel([
        { toolCalls: [{ id: 'call_9', name: 'delete_file', arguments: { path: 'a.txt' } }] },
      ]),
      tools: [deleteFile],
    });
    const controller = new AbortController();
    const events = await verified(
      agent
        .run('Delete a.txt', {
          approve: () => new Promise<boolean>(() => undefined),
          signal: controller.signal,
        })
        .pipe(toAgUiEvents({ threadId: 't', runId: 'r' })),
    );
    expect(events.at(-1)).toMatchObject({
      type: EventType.RUN_FINISHED,
      outcome: {
        type: 'interrupt',
        interrupts: [{ id: 'call_9', reason: 'tool_approval', toolCallId: 'call_9' }],
      },
    });
  });
});

describe('agUiHandler with @ag-ui/client HttpAgent', () => {
  it('streams a run to an HttpAgent, which builds the assistant and tool messages', async () => {
    const agent = new Agent({
      model: scriptedModel([{ toolCalls: [{ name: 'get_time' }] }, { text: ['It is ', '12:00.'] }]),
      tools: [getTime],
    });
    const server = await serveFetch(agUiHandler(agent));
    servers.push(server);
    const client = new HttpAgent({ url: `${server.url}/agui`, threadId: 'thread-1' });
    client.addMessage({ id: 'u1', role: 'user', content: 'What time is it?' });
    const { result, newMessages } = await client.runAgent();
    expect(result).toBe('It is 12:00.');
    expect(newMessages.map((message) => message.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(newMessages.at(-1)).toMatchObject({ content: 'It is 12:00.' });
  });

  it('pauses at an approval with an interrupt and resumes with the decision in the next input', async () => {
    deleted.length = 0;
    const model = scriptedModel([
      { toolCalls: [{ id: 'call_1', name: 'delete_file', arguments: { path: 'a.txt' } }] },
      { text: 'Deleted a.txt.' },
      { toolCalls: [{ id: 'call_2', name: 'delete_file', arguments: { path: 'b.txt' } }] },
      { text: 'Left b.txt alone.' },
    ]);
    const runs = new RunRegistry();
    const agent = new Agent({ model, tools: [deleteFile], sessions: memorySessionStore() });
    const server = await serveFetch(agUiHandler(agent, { runs }));
    servers.push(server);
    const client = new HttpAgent({ url: server.url, threadId: 'thread-2' });

    client.addMessage({ id: 'u1', role: 'user', content: 'Delete a.txt' });
    const paused: BaseEvent[] = [];
    await client.runAgent(undefined, { onEvent: ({ event }) => void paused.push(event) });
    const interrupts = client.pendingInterrupts;
    expect(interrupts).toHaveLength(1);
    expect(interrupts[0]).toMatchObject({ reason: 'tool_approval', toolCallId: 'call_1' });
    expect(deleted).toEqual([]);

    const approved = await client.runAgent({
      resume: [{ interruptId: interrupts[0]!.id, status: 'resolved', payload: { approved: true } }],
    });
    expect(deleted).toEqual(['a.txt']);
    expect(approved.result).toBe('Deleted a.txt.');

    client.addMessage({ id: 'u2', role: 'user', content: 'Delete b.txt' });
    await client.runAgent();
    const second = client.pendingInterrupts;
    expect(second).toHaveLength(1);
    const rejected = await client.runAgent({ resume: [{ interruptId: second[0]!.id, status: 'cancelled' }] });
    expect(rejected.result).toBe('Left b.txt alone.');
    expect(deleted).toEqual(['a.txt']);
    // The session holds the thread; the model saw the first exchange again in its third turn.
    expect((model.requests[2]!.messages as readonly Message[]).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  });

  it('cancels the run when the client aborts mid-run (abortRun), but not when it pauses', async () => {
    const model = scriptedModel([{ text: Array.from({ length: 50 }, (_, i) => `w${i} `) }], { delayMs: 20 });
    const runs = new RunRegistry({ createId: () => 'run-1' });
    const handle = agUiHandler(new Agent({ model }), { runs });
    const input = { threadId: 't', runId: 'r', messages: [{ id: 'u', role: 'user', content: 'Talk' }] };
    const response = await handle(new Request('http://x/', { method: 'POST', body: JSON.stringify(input) }));
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('TEXT_MESSAGE_CONTENT'))
      seen += new TextDecoder().decode((await reader.read()).value);
    expect(runs.statusHere('run-1')).toBe('running');
    await reader.cancel();
    expect(runs.statusHere('run-1')).toBe('cancelled');
  });

  it('refuses a body that is not a RunAgentInput with 400, and an unknown interrupt with RUN_ERROR', async () => {
    const agent = new Agent({ model: scriptedModel([]) });
    const handle = agUiHandler(agent);
    const bad = await handle(new Request('http://x/', { method: 'POST', body: '{"messages":3}' }));
    expect(bad.status).toBe(400);
    const unknown = await handle(
      new Request('http://x/', {
        method: 'POST',
        body: JSON.stringify({
          threadId: 't',
          runId: 'r',
          messages: [],
          resume: [{ interruptId: 'nope', status: 'resolved' }],
        }),
      }),
    );
    expect(await unknown.text()).toContain('"code":"interrupt_not_found"');
  });
});
