import {
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk as AiUIMessageChunk,
  uiMessageChunkSchema,
  validateUIMessages,
} from 'ai';
import { concat, lastValueFrom, NEVER, type Observable, takeWhile, throwError, toArray } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent } from '../../../src/agent/index.ts';
import { ApiError } from '../../../src/core/index.ts';
import { toUIMessageStream, type UIMessageChunk } from '../../../src/http/index.ts';
import { scriptedModel } from '../../../src/testing/index.ts';
import { defineTool } from '../../../src/tools/index.ts';

const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email.',
  input: z.object({ to: z.string() }),
  needsApproval: true,
  execute: ({ to }) => ({ sent: to }),
});
const getTime = defineTool({
  name: 'get_time',
  description: 'The time.',
  input: z.object({}),
  execute: () => ({ time: '12:00' }),
});

/** Every chunk checked against the `ai` package's own schema, then assembled by its own reader. */
async function checked(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const result = await schema.validate!(chunk);
    expect(result.success, JSON.stringify(chunk)).toBe(true);
  }
  const stream = new ReadableStream<AiUIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream<UIMessage>({ stream, terminateOnError: true }))
    last = message;
  expect(last).toBeDefined();
  const [valid] = await validateUIMessages<UIMessage>({ messages: [last!] });
  return valid!;
}

const chunksOf = (events$: Observable<AgentEvent>, options = {}) =>
  lastValueFrom(events$.pipe(toUIMessageStream(options), toArray()));

describe('toUIMessageStream', () => {
  it("its chunk type is the ai package's UIMessageChunk", () => {
    expectTypeOf<UIMessageChunk>().toExtend<AiUIMessageChunk>();
  });

  it('maps reasoning, text, a tool call with its output and a second step to chunks ai accepts', async () => {
    const agent = new Agent({
      model: scriptedModel([
        { reasoning: ['Need ', 'the time.'], text: 'Checking. ', toolCalls: [{ name: 'get_time' }] },
        { text: ['It is ', '12:00.'] },
      ]),
      tools: [getTime],
    });
    const chunks = await chunksOf(agent.run('Time?'), { messageId: 'm1' });
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'm1' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    const message = await checked(chunks);
    expect(message.id).toBe('m1');
    expect(message.parts.map((part) => part.type)).toEqual([
      'step-start',
      'reasoning',
      'text',
      'tool-get_time',
      'step-start',
      'text',
    ]);
    expect(message.parts[1]).toMatchObject({ text: 'Need the time.', state: 'done' });
    expect(message.parts[3]).toMatchObject({ state: 'output-available', output: { time: '12:00' } });
    expect(message.parts[5]).toMatchObject({ text: 'It is 12:00.', state: 'done' });
  });

  it('streams tool input as it arrives when the model gives deltas (id and name may come late)', async () => {
    const call = { id: 'c1', name: 'get_time', arguments: { zone: 'UTC' } };
    const events: AgentEvent[] = [
      { type: 'step-started', step: 1 },
      { type: 'text-delta', text: 'Let me check.' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"zo' },
      { type: 'tool-call-delta', index: 0, id: 'c1', name: 'get_time', argumentsDelta: 'ne":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"UTC"}' },
      { type: 'tool-calls-ready', toolCalls: [call] },
    ];
    const chunks = await chunksOf(concat(events));
    expect(chunks.filter((c) => c.type.startsWith('tool-input'))).toEqual([
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'get_time' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"zone":' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"UTC"}' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'get_time', input: { zone: 'UTC' } },
    ]);
    const message = await checked(chunks);
    expect(message.parts[2]).toMatchObject({ state: 'input-available', input: { zone: 'UTC' } });
  });

  it('a call waiting for approval: the request, then finish (tool-calls) when the stream ends there', async () => {
    const agent = new Agent({
      model: scriptedModel([
        { text: 'Sending.', toolCalls: [{ name: 'send_email', arguments: { to: 'ann' } }] },
      ]),
      tools: [sendEmail],
      approve: () => NEVER,
    });
    // The handler stops reading once the run waits: the events up to the approval request.
    const upToApproval = agent.run('Mail ann').pipe(takeWhile((e) => e.type !== 'approval-requested', true));
    const chunks = await chunksOf(upToApproval, { approvalId: (call: { id: string }) => `a-${call.id}` });
    expect(chunks.filter((c) => c.type === 'tool-approval-request')).toEqual([
      { type: 'tool-approval-request', approvalId: 'a-call_1', toolCallId: 'call_1' },
    ]);
    expect(chunks.slice(-2)).toEqual([
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'tool-calls' },
    ]);
    const message = await checked(chunks);
    expect(message.parts[2]).toMatchObject({ state: 'approval-requested', approval: { id: 'a-call_1' } });
  });

  it('an approved call ends with the approval response and its output; a rejected one is denied', async () => {
    for (const approved of [true, false]) {
      const agent = new Agent({
        model: scriptedModel([
          { toolCalls: [{ name: 'send_email', arguments: { to: 'ann' } }] },
          { text: 'Done.' },
        ]),
        tools: [sendEmail],
        approve: () => approved,
      });
      const chunks = await chunksOf(agent.run('Mail ann'));
      const message = await checked(chunks);
      const part = message.parts.find((p) => p.type === 'tool-send_email');
      expect(part).toMatchObject(
        approved
          ? { state: 'output-available', approval: { approved: true }, output: { sent: 'ann' } }
          : { state: 'output-denied', approval: { approved: false } },
      );
    }
  });

  it('a restarted step is withdrawn with reset-step', async () => {
    const events: AgentEvent[] = [
      { type: 'step-started', step: 1 },
      { type: 'text-delta', text: 'Hal' },
      { type: 'step-restarted', step: 1, error: new ApiError('cut', { status: 500, provider: 'p' }) },
      { type: 'text-delta', text: 'Hello.' },
    ];
    const chunks = await chunksOf(concat(events));
    const message = await checked(chunks);
    expect(message.parts.filter((p) => p.type === 'text')).toMatchObject([{ text: 'Hello.' }]);
  });

  it('a failed run ends with one error chunk, hiding a non-rxagent message', async () => {
    const failing = (error: unknown) =>
      chunksOf(
        concat(
          [{ type: 'step-started', step: 1 } as AgentEvent],
          throwError(() => error),
        ),
      );
    expect((await failing(new Error('db password is hunter2'))).at(-1)).toEqual({
      type: 'error',
      errorText: 'The run failed',
    });
    // A provider's answer is not for a browser (it may hold a masked key, a deployment, an org id).
    const rx = await failing(
      new ApiError('openai 401: Incorrect API key provided: sk-proj-****abcd', {
        status: 401,
        provider: 'openai',
      }),
    );
    expect(rx.at(-1)).toEqual({ type: 'error', errorText: 'The run failed (api_error)' });
  });

  it("a tool's failure reaches the page as the model saw it, never what the tool threw", async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up.',
      input: z.object({}),
      execute: () => {
        throw new Error('connect ECONNREFUSED postgres://app:hunter2@10.0.0.5/prod');
      },
    });
    const agent = new Agent({
      model: scriptedModel([{ toolCalls: [{ name: 'lookup' }] }, { text: 'Sorry.' }]),
      tools: [lookup],
    });
    const chunks = await chunksOf(agent.run('Look it up'));
    const failed = chunks.find((chunk) => chunk.type === 'tool-output-error');
    expect(failed).toBeDefined();
    expect(JSON.stringify(chunks)).not.toContain('hunter2');
    await checked(chunks);
  });

  it('a run that ends without completing (a cancel) ends with abort', async () => {
    const chunks = await chunksOf(
      concat([
        { type: 'step-started', step: 1 },
        { type: 'text-delta', text: 'Hi' },
      ] as AgentEvent[]),
    );
    expect(chunks.slice(-3)).toEqual([
      { type: 'text-end', id: 'text-1-1' },
      { type: 'finish-step' },
      { type: 'abort', reason: 'The run was stopped' },
    ]);
    await checked(chunks);
  });
});
