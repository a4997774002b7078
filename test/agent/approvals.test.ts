import { filter, firstValueFrom, lastValueFrom, of, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  type ApprovalRequest,
  defineTool,
  memorySessionStore,
} from '../../src/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';
import { openaiFrames } from './openai-sse.ts';
import { weatherTool } from './weather-tools.ts';

const servers = useTranscriptServer();
const modelAt = (url: string) =>
  openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: `${url}/v1`, retry: false });

const executed: number[] = [];
const transfer = defineTool({
  name: 'transfer',
  description: 'Moves money.',
  input: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => {
    executed.push(amount);
    return { done: amount };
  },
});
const transferCall = (id: string, amount: number) => ({
  id,
  name: 'transfer',
  arguments: JSON.stringify({ amount }),
});

const toolContents = (json: unknown) =>
  (json as { messages: { role: string; tool_call_id?: string; content: string }[] }).messages
    .filter((message) => message.role === 'tool')
    .map((message) => [message.tool_call_id, JSON.parse(message.content) as unknown]);

describe('approvals', () => {
  it('one granted, one rejected: the model sees both outcomes', async () => {
    executed.length = 0;
    const server = await servers.start([
      { chunks: openaiFrames({ toolCalls: [transferCall('call_a', 50), transferCall('call_b', 5000)] }) },
      { chunks: openaiFrames({ text: ['Sent 50; 5000 was declined.'] }) },
    ]);
    const asked: ApprovalRequest[] = [];
    const agent = new Agent({ model: modelAt(server.url), tools: [transfer] });
    const events = await lastValueFrom(
      agent
        .run('Pay', {
          actor: { id: 'u1' },
          approve: (request) => {
            asked.push(request);
            return Promise.resolve((request.toolCall.arguments.amount as number) < 100);
          },
        })
        .pipe(toArray()),
    );
    expect(asked.map((request) => [request.step, request.toolCall.id, request.actor?.id])).toEqual([
      [1, 'call_a', 'u1'],
      [1, 'call_b', 'u1'],
    ]);
    const outcomes = events
      .filter((event) => event.type === 'tool-result')
      .map((event) => [event.toolCall.id, event.outcome.status]);
    expect(outcomes.sort()).toEqual([
      ['call_a', 'ok'],
      ['call_b', 'rejected'],
    ]);
    expect(events.filter((event) => event.type === 'approval-requested')).toHaveLength(2);
    expect(executed).toEqual([50]);
    expect(toolContents(server.requests[1]?.json)).toEqual([
      ['call_a', { done: 50 }],
      ['call_b', expect.objectContaining({ error: 'rejected' })],
    ]);
  });

  it('a pending approval holds up no other call; cancelling then leaves nothing behind', async () => {
    const server = await servers.start([
      {
        chunks: openaiFrames({
          toolCalls: [
            transferCall('call_p', 10),
            { id: 'call_w', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          ],
        }),
      },
    ]);
    const sessions = memorySessionStore();
    const signals: AbortSignal[] = [];
    const agent = new Agent({
      model: modelAt(server.url),
      tools: [transfer, weatherTool()],
      sessions,
      approve: (request) => {
        signals.push(request.signal);
        return new Promise<boolean>(() => undefined); // nobody answers
      },
    });
    const seen: AgentEvent[] = [];
    const run$ = agent.run('Pay and weather', { sessionId: 's' });
    const weatherDone = firstValueFrom(
      run$.pipe(
        filter((event) => {
          seen.push(event);
          return event.type === 'tool-result';
        }),
        take(1),
      ),
    );
    const first = await weatherDone; // the run is unsubscribed right after (take(1))
    expect(first.type === 'tool-result' && first.toolCall.id).toBe('call_w');
    expect(seen.map((event) => event.type)).toContain('approval-requested');
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(await sessions.get('s')).toBeNull();
    expect(server.requests).toHaveLength(1);
  });

  it('no answer within approvalTimeoutMs, or no approver at all: rejected', async () => {
    const server = await servers.start([
      { chunks: openaiFrames({ toolCalls: [transferCall('call_t', 1)] }) },
      { chunks: openaiFrames({ text: ['Declined.'] }) },
    ]);
    const slow = new Agent({
      model: modelAt(server.url),
      tools: [transfer],
      approve: () => new Promise<boolean>(() => undefined),
      approvalTimeoutMs: 50,
    });
    const result = await slow.chat('Pay');
    expect(result.messages.find((message) => message.role === 'tool')?.isError).toBe(true);
    expect(toolContents(server.requests[1]?.json)[0]?.[1]).toMatchObject({ error: 'rejected' });

    const nobody = new Agent({ model: modelAt(server.url), tools: [transfer] });
    const outcome = await nobody.invokeTool('transfer', { amount: 3 });
    expect(outcome.status).toBe('rejected');
  });

  it('an Observable approver and invokeTool go through the same approval', async () => {
    executed.length = 0;
    const agent = new Agent({
      model: openai('gpt-4o-mini', { apiKey: 'x' }),
      tools: [transfer],
      approve: () => of(true),
    });
    expect(await agent.invokeTool('transfer', { amount: 7 })).toMatchObject({
      status: 'ok',
      result: { done: 7 },
    });
    expect(await agent.invokeTool('transfer', { amount: 8 }, { approve: () => of(false) })).toMatchObject({
      status: 'rejected',
    });
    expect(executed).toEqual([7]);
  });
});
