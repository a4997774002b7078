import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, memorySessionStore } from '../../src/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';
import { openaiFrames } from './openai-sse.ts';
import { weatherTool } from './weather-tools.ts';

const servers = useTranscriptServer();
const modelAt = (url: string) =>
  openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: `${url}/v1`, retry: false });

/** The event types, with text deltas and tool results spelled out. */
const trace = (events: AgentEvent[]) =>
  events.map((event) => {
    switch (event.type) {
      case 'text-delta':
        return `text:${event.text}`;
      case 'tool-result':
        return `result:${event.toolCall.id}:${event.outcome.status}`;
      case 'step-started':
      case 'step-completed':
      case 'step-restarted':
        return `${event.type}:${event.step}`;
      default:
        return event.type;
    }
  });

const messagesSent = (server: { requests: { json: unknown }[] }) =>
  server.requests.map((request) => (request.json as { messages: unknown[] }).messages);

const weatherSpec = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city.',
  },
};

describe('the agent loop against openai() and a scripted server', () => {
  it('tool call → result → answer, with the exact requests and events', async () => {
    const server = await servers.start([
      {
        chunks: openaiFrames({
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        }),
      },
      { chunks: openaiFrames({ text: ['It is ', '18 °C.'] }) },
    ]);
    const agent = new Agent({ model: modelAt(server.url), tools: [weatherTool()], system: 'Be brief.' });
    const events = await lastValueFrom(agent.run('Weather in Oslo?').pipe(toArray()));
    expect(trace(events)).toEqual([
      'step-started:1',
      'tool-calls-ready',
      'step-completed:1',
      'result:call_1:ok',
      'step-started:2',
      'text:It is ',
      'text:18 °C.',
      'step-completed:2',
      'agent-completed',
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.json).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      tools: [weatherSpec],
    });
    expect(messagesSent(server)).toEqual([
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Oslo","tempC":18}' },
      ],
    ]);
    const completed = events.at(-1);
    expect(completed?.type === 'agent-completed' && completed.result).toMatchObject({
      text: 'It is 18 °C.',
      finishReason: 'stop',
      usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 },
    });
  });

  it('parallel calls: results as they finish, tool messages in call order', async () => {
    const server = await servers.start([
      {
        chunks: openaiFrames({
          toolCalls: [
            { id: 'call_r', name: 'get_weather', arguments: '{"city":"Rome"}' },
            { id: 'call_o', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          ],
        }),
      },
      { chunks: openaiFrames({ text: ['Rome 24, Oslo 18.'] }) },
    ]);
    const agent = new Agent({ model: modelAt(server.url), tools: [weatherTool({ romeDelayMs: 150 })] });
    const events = await lastValueFrom(agent.run('Rome and Oslo?').pipe(toArray()));
    expect(trace(events).filter((entry) => entry.startsWith('result'))).toEqual([
      'result:call_o:ok',
      'result:call_r:ok',
    ]);
    expect(messagesSent(server)[1]?.slice(1)).toEqual([
      expect.objectContaining({ role: 'assistant' }),
      { role: 'tool', tool_call_id: 'call_r', content: '{"city":"Rome","tempC":24}' },
      { role: 'tool', tool_call_id: 'call_o', content: '{"city":"Oslo","tempC":18}' },
    ]);
  });

  it('invalid arguments, then a corrected call', async () => {
    const server = await servers.start([
      {
        chunks: openaiFrames({
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":42}' }],
        }),
      },
      {
        chunks: openaiFrames({
          toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        }),
      },
      { chunks: openaiFrames({ text: ['18 °C.'] }) },
    ]);
    const agent = new Agent({ model: modelAt(server.url), tools: [weatherTool()] });
    const result = await agent.chat('Oslo?');
    expect(result.text).toBe('18 °C.');
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => [message.toolCallId, message.isError ?? false])).toEqual([
      ['call_1', true],
      ['call_2', false],
    ]);
    const second = messagesSent(server)[1] as { role: string; content: string }[];
    expect(JSON.parse(second.at(-1)?.content ?? '')).toMatchObject({
      error: 'invalid_arguments',
      issues: [{ path: '/city', message: 'must be string' }],
    });
    expect(server.requests).toHaveLength(3);
  });

  it('malformed JSON arguments, then a corrected call', async () => {
    const server = await servers.start([
      {
        chunks: openaiFrames({
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Os' }],
        }),
      },
      {
        chunks: openaiFrames({
          toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        }),
      },
      { chunks: openaiFrames({ text: ['18 °C.'] }) },
    ]);
    const agent = new Agent({ model: modelAt(server.url), tools: [weatherTool()] });
    const events = await lastValueFrom(agent.run('Oslo?').pipe(toArray()));
    expect(trace(events).filter((entry) => entry.startsWith('result'))).toEqual([
      'result:call_1:invalid_arguments',
      'result:call_2:ok',
    ]);
    const second = messagesSent(server)[1] as {
      role: string;
      content: string | null;
      tool_calls?: unknown;
    }[];
    // The broken call goes back (with the provider's `{}` for the arguments), answered by its result.
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', function: { name: 'get_weather', arguments: '{}' } }],
    });
    expect(JSON.parse(second.at(-1)?.content ?? '')).toMatchObject({ error: 'invalid_arguments' });
    expect(server.requests).toHaveLength(3);
  });

  it('a mid-stream drop restarts the step: the same request again, finished tools not redone', async () => {
    const server = await servers.start([
      {
        chunks: openaiFrames({
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
        }),
      },
      // Two deltas, then the connection is cut (the empty last write lets the deltas arrive first).
      { chunks: [...openaiFrames({ text: ['It is ', '18'] }).slice(0, 3), ''], delayMs: 20, cut: true },
      { chunks: openaiFrames({ text: ['It is ', '18 °C.'] }) },
    ]);
    const tool = weatherTool();
    const agent = new Agent({ model: modelAt(server.url), tools: [tool] });
    const events = await lastValueFrom(agent.run('Oslo?').pipe(toArray()));
    expect(trace(events)).toEqual([
      'step-started:1',
      'tool-calls-ready',
      'step-completed:1',
      'result:call_1:ok',
      'step-started:2',
      'text:It is ',
      'text:18',
      'step-restarted:2',
      'text:It is ',
      'text:18 °C.',
      'step-completed:2',
      'agent-completed',
    ]);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]?.body).toBe(server.requests[1]?.body);
  });

  it('a session continues across runs and gets exactly the run messages appended', async () => {
    const server = await servers.start([
      { chunks: openaiFrames({ text: ['Hi Ada.'] }) },
      { chunks: openaiFrames({ text: ['You are Ada.'] }) },
    ]);
    const sessions = memorySessionStore();
    const agent = new Agent({ model: modelAt(server.url), sessions });
    await agent.chat('I am Ada.', { sessionId: 's1' });
    const second = await agent.chat('Who am I?', { sessionId: 's1' });
    expect(second.text).toBe('You are Ada.');
    expect(messagesSent(server)[1]).toEqual([
      { role: 'user', content: 'I am Ada.' },
      { role: 'assistant', content: 'Hi Ada.' },
      { role: 'user', content: 'Who am I?' },
    ]);
    const session = await sessions.get('s1');
    expect(session?.version).toBe(2);
    expect(session?.messages.map((message) => message.content)).toEqual([
      'I am Ada.',
      'Hi Ada.',
      'Who am I?',
      'You are Ada.',
    ]);
  });
});
