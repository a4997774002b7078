import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  assistant,
  type ChatModel,
  IncompleteStreamError,
  RateLimitError,
  type StreamEvent,
  toolMessage,
  user,
} from '../../src/index.ts';
import { settle } from '../support/settle.ts';
import { randomSplit, randomSplitBytes } from '../support/split.ts';
import type { ScriptedResponse } from '../support/transcript-server.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';
import { anthropicFixture } from './anthropic/contract-fixture.ts';
import { bedrockFixture } from './bedrock/contract-fixture.ts';
import type { ContractFixture } from './contract-fixture.ts';
import { geminiFixture } from './gemini/contract-fixture.ts';
import { ollamaFixture } from './ollama/contract-fixture.ts';
import { openaiFixture } from './openai/contract-fixture.ts';

const fixtures: ContractFixture[] = [
  openaiFixture,
  anthropicFixture,
  geminiFixture,
  ollamaFixture,
  bedrockFixture,
];
const SEEDS = [1, 2, 3, 4, 5];

/** Events in a provider-independent form: adjacent deltas merged, generated ids replaced. */
type Canonical =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-calls'; calls: { name: string; arguments: Record<string, unknown> }[] }
  | {
      type: 'completed';
      text: string;
      finishReason: string;
      usage?: { inputTokens: number; outputTokens: number };
    };

function canonical(events: readonly StreamEvent[]): Canonical[] {
  const out: Canonical[] = [];
  for (const event of events) {
    const last = out.at(-1);
    switch (event.type) {
      case 'text-delta':
        if (last?.type === 'text') last.text += event.text;
        else out.push({ type: 'text', text: event.text });
        break;
      case 'reasoning-delta':
        if (last?.type === 'reasoning') last.text += event.text;
        else out.push({ type: 'reasoning', text: event.text });
        break;
      case 'tool-call-delta':
        break;
      case 'tool-calls-ready':
        out.push({
          type: 'tool-calls',
          calls: event.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args })),
        });
        break;
      case 'stream-completed': {
        const { text, finishReason, usage } = event.response;
        out.push({
          type: 'completed',
          text,
          finishReason,
          ...(usage === undefined
            ? {}
            : { usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } }),
        });
        break;
      }
      default: {
        const never: never = event;
        throw new Error(`unexpected ${String(never)}`);
      }
    }
  }
  return out;
}

const weather = { name: 'get_weather', arguments: { city: 'Paris' } };
const time = { name: 'get_time', arguments: { timezone: 'Europe/Paris' } };
const completed = (
  text: string,
  finishReason: string,
  inputTokens: number,
  outputTokens: number,
): Canonical => ({
  type: 'completed',
  text,
  finishReason,
  usage: { inputTokens, outputTokens },
});
const greeting = 'Hello! How can I help you today?';
const expected = {
  text: [{ type: 'text', text: greeting }, completed(greeting, 'stop', 12, 9)],
  reasoning: [
    { type: 'reasoning', text: 'Let me think. 6 times 7 is 42.' },
    { type: 'text', text: '42.' },
    completed('42.', 'stop', 20, 15),
  ],
  toolCall: [{ type: 'tool-calls', calls: [weather] }, completed('', 'tool-calls', 30, 10)],
  parallelToolCalls: [{ type: 'tool-calls', calls: [weather, time] }, completed('', 'tool-calls', 30, 20)],
} satisfies Record<string, Canonical[]>;

describe.each(fixtures)('provider contract: $name', (fixture) => {
  const servers = useTranscriptServer();

  const stream = (transcript: string, seed: number): ScriptedResponse => ({
    headers: fixture.streamHeaders,
    chunks: fixture.encode
      ? randomSplitBytes(fixture.encode(transcript), seed)
      : randomSplit(transcript, seed),
  });
  const model = (retry: false | { maxRetries: number; initialDelayMs: number } = false): ChatModel =>
    fixture.createModel(servers.url, { retry });

  const scenarios = ['text', 'reasoning', 'toolCall', 'parallelToolCalls'] as const;
  for (const scenario of scenarios) {
    it(`${scenario}: the canonical events at any chunk split`, async () => {
      const transcript = fixture.transcripts[scenario];
      if (transcript === undefined) {
        expect(scenario).toBe('reasoning'); // only reasoning may be absent, for providers without it
        return;
      }
      for (const seed of SEEDS) {
        const server = await servers.start([stream(transcript, seed)]);
        const events = await lastValueFrom(model().stream({ messages: 'hi' }).pipe(toArray()));
        expect(canonical(events)).toEqual(expected[scenario]);
        expect(events.filter((e) => e.type === 'stream-completed')).toHaveLength(1);
        expect(events.at(-1)?.type).toBe('stream-completed');
        await server.close();
      }
    });
  }

  it('midStreamError: the text so far, then ApiError, never retried after output', async () => {
    const server = await servers.start([stream(fixture.transcripts.midStreamError, 7)]);
    const { events, error } = await settle(
      model({ maxRetries: 3, initialDelayMs: 1 }).stream({ messages: 'hi' }),
    );
    expect(canonical(events)).toEqual([{ type: 'text', text: 'Hel' }]);
    expect(ApiError.is(error)).toBe(true);
    expect((error as Error).message).toContain('Overloaded');
    expect(server.requests).toHaveLength(1);
  });

  it('truncated: a cut-off reply errors with IncompleteStreamError', async () => {
    await servers.start([stream(fixture.transcripts.truncated, 3)]);
    const { events, error } = await settle(model().stream({ messages: 'hi' }));
    expect(canonical(events)).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(IncompleteStreamError.is(error)).toBe(true);
  });

  it('rateLimited: 429 is retried, then the reply streams', async () => {
    const server = await servers.start([
      fixture.transcripts.rateLimited,
      stream(fixture.transcripts.text, 11),
    ]);
    const events = await lastValueFrom(
      model({ maxRetries: 2, initialDelayMs: 1 }).stream({ messages: 'hi' }).pipe(toArray()),
    );
    expect(canonical(events)).toEqual(expected.text);
    expect(server.requests).toHaveLength(2);
  });

  it('rateLimited without retries: RateLimitError with the message', async () => {
    await servers.start([fixture.transcripts.rateLimited]);
    const error = await model()
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(RateLimitError.is(error)).toBe(true);
    expect((error as Error).message).toContain('Rate limit');
  });

  it('badRequest: ApiError 400, not retried', async () => {
    const server = await servers.start([fixture.transcripts.badRequest]);
    const error = await model({ maxRetries: 3, initialDelayMs: 1 })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 400 });
    expect((error as Error).message).toContain('Invalid request');
    expect(server.requests).toHaveLength(1);
  });

  it('unsubscribe aborts the request', async () => {
    const text = fixture.transcripts.text;
    const all = fixture.encode ? fixture.encode(text) : new TextEncoder().encode(text);
    // everything but the last bytes, then hold the connection open
    const server = await servers.start([
      { headers: fixture.streamHeaders, chunks: [all.subarray(0, all.length - 1)], hold: true },
    ]);
    const aborted = server.nextClientAbort();
    const first = await firstValueFrom(model().stream({ messages: 'hi' }));
    expect(first.type).toBe('text-delta');
    await aborted;
    expect(server.clientAborts).toBe(1);
  });

  it('sends tool calls and their results back in the provider format', async () => {
    const server = await servers.start([stream(fixture.transcripts.text, 5)]);
    const response = await model().complete({
      messages: [
        user('Weather in Paris?'),
        assistant('', [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }]),
        toolMessage('call_1', '{"tempC":18}'),
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Current weather for a city.',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
      ],
    });
    expect(response.text).toBe(greeting);
    fixture.assertToolResultRequest(server.requests[0]?.json);
  });
});
