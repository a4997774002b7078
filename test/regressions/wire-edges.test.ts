// Regressions (cold review of issue 15's "Real provider streams" and "Tool outcomes with media",
// 2026-11-26): what real servers and hostile ones send at the edges of the wire, over real HTTP.
// Before: tool-call arguments sent as an object crashed the stream with an untyped TypeError;
// interleaved calls without an index were glued together; anything after the terminal event threw
// the finished turn away (Anthropic's message_stop is the end; elsewhere a finish reason is not); usage strings and negatives became text and negative costs; media in a
// system or assistant message, and parts of unknown types, were left out of the request unseen.
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  type ChatModel,
  InvalidRequestError,
  type Message,
  type StreamCompleted,
  type StreamEvent,
  ToolCallParseError,
} from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { toAnthropicRequest } from '../../src/providers/anthropic/to-anthropic-request.ts';
import { toBedrockMessages } from '../../src/providers/bedrock/bedrock-messages.ts';
import { bedrock } from '../../src/providers/bedrock/index.ts';
import { gemini } from '../../src/providers/gemini/index.ts';
import { ollama } from '../../src/providers/ollama/index.ts';
import { openaiCompatible } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const servers = useTranscriptServer();
const sse = (events: readonly unknown[]) =>
  events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`);
const run = (model: ChatModel, messages: string | Message[] = 'hi') =>
  lastValueFrom(model.stream({ messages }).pipe(toArray()));
const completed = (events: StreamEvent[]) => (events.at(-1) as StreamCompleted).response;

/** An OpenAI-compatible model streaming `events` (each its own chunk). */
async function openAIStream(events: readonly unknown[]): Promise<ChatModel> {
  const server = await servers.start([{ chunks: sse(events) }]);
  return openaiCompatible('m', { baseURL: server.url, retry: false });
}
const chunk = (delta: object, finish: string | null = null) => ({
  id: 'r',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const calls = (...toolCalls: object[]) => chunk({ tool_calls: toolCalls });

describe('OpenAI-compatible tool calls at the edges', () => {
  it('takes arguments sent as an object, and a bare call outside a list', async () => {
    const model = await openAIStream([
      calls({ index: 0, id: 'A', function: { name: 'f', arguments: { a: 1 } } }),
      chunk({ tool_calls: { index: 1, id: 'B', function: { name: 'g', arguments: '{"b":2}' } } }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    expect(completed(await run(model)).toolCalls).toEqual([
      { id: 'A', name: 'f', arguments: { a: 1 } },
      { id: 'B', name: 'g', arguments: { b: 2 } },
    ]);
  });

  it('tells interleaved calls without an index apart by id, in order of arrival', async () => {
    const model = await openAIStream([
      calls({ id: 'A', function: { name: 'f', arguments: '{"a":' } }),
      calls({ id: 'B', function: { name: 'g', arguments: '{"b":' } }),
      calls({ id: 'A', function: { arguments: '1}' } }),
      calls({ id: 'B', function: { arguments: '2}' } }),
      calls({ id: 'C', function: { name: 'h', arguments: '{}' } }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    expect(completed(await run(model)).toolCalls).toEqual([
      { id: 'A', name: 'f', arguments: { a: 1 } },
      { id: 'B', name: 'g', arguments: { b: 2 } },
      { id: 'C', name: 'h', arguments: {} },
    ]);
  });

  it('a call whose id and name are not text is a typed error that says why', async () => {
    const model = await openAIStream([
      calls({ index: 0, id: { x: 1 }, function: { name: ['f'], arguments: '{}' } }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    const error = await run(model).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallParseError);
    expect((error as Error).message).toMatch(/has no name/);
  });

  it('reasoning that is not text does not hide the reasoning that is', async () => {
    const model = await openAIStream([
      chunk({ reasoning_content: { a: 1 }, reasoning: 'R', content: 'x' }),
      chunk({}, 'stop'),
      '[DONE]',
    ]);
    const events = await run(model);
    expect(events.filter((e) => e.type !== 'stream-completed')).toEqual([
      { type: 'reasoning-delta', text: 'R' },
      { type: 'text-delta', text: 'x' },
    ]);
  });

  it('an error after a finish reason is an error: on real gateways a finish reason is not the end', async () => {
    const model = await openAIStream([
      chunk({ content: 'The answer is' }, 'stop'),
      { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
    ]);
    expect(((await run(model).catch((e: unknown) => e)) as Error).name).toBe('RateLimitError');
  });

  it('a finish reason on every chunk (one-api) keeps all the text, and an error after such text is an error', async () => {
    const whole = await openAIStream([
      chunk({ content: 'Hello' }, 'stop'),
      chunk({ content: ', world.' }, 'stop'),
      '[DONE]',
    ]);
    expect(completed(await run(whole)).text).toBe('Hello, world.');
    const cut = await openAIStream([
      chunk({ content: 'The answer is' }, 'stop'),
      chunk({ content: ' 4' }, 'stop'),
      { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
    ]);
    const error = await run(cut).catch((e: unknown) => e);
    expect((error as Error).name).toBe('RateLimitError');
  });

  it('a later stop does not hide an earlier length', async () => {
    const model = await openAIStream([chunk({ content: 'x' }, 'length'), chunk({}, 'stop'), '[DONE]']);
    expect(completed(await run(model)).finishReason).toBe('length');
  });

  it('a later finish reason wins (a content filter after stop)', async () => {
    const model = await openAIStream([
      chunk({ content: 'x' }, 'stop'),
      chunk({}, 'content_filter'),
      '[DONE]',
    ]);
    expect(completed(await run(model)).finishReason).toBe('content-filter');
  });
});

describe('Anthropic and Gemini streams at the edges', () => {
  const anthropicEvents = (...events: unknown[]) => [
    { type: 'message_start', message: { id: 'msg', model: 'claude', usage: { input_tokens: 5 } } },
    ...events,
  ];

  it('Anthropic: input sent as an object is taken as its JSON, text that is not text adds nothing', async () => {
    const server = await servers.start([
      {
        chunks: sse(
          anthropicEvents(
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: { a: 1 } } },
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
            { type: 'content_block_stop', index: 0 },
            {
              type: 'content_block_start',
              index: 1,
              content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} },
            },
            {
              type: 'content_block_delta',
              index: 1,
              delta: { type: 'input_json_delta', partial_json: { a: 1 } },
            },
            { type: 'content_block_stop', index: 1 },
            { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: -7 } },
            { type: 'message_stop' },
          ),
        ),
      },
    ]);
    const done = completed(await run(anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: 'k' })));
    expect(done.text).toBe('ok');
    expect(done.toolCalls).toEqual([{ id: 'toolu_1', name: 'f', arguments: { a: 1 } }]);
    expect(done.usage).toMatchObject({ inputTokens: 5, outputTokens: 0 });
  });

  it('Anthropic: nothing after message_stop counts, an error or a malformed event included', async () => {
    const server = await servers.start([
      {
        chunks: sse(
          anthropicEvents(
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'hi' } },
            { type: 'content_block_stop', index: 0 },
            { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
            { type: 'message_stop' },
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'LATE' } },
            { type: 'error', error: { type: 'overloaded_error', message: 'late' } },
            'not json',
          ),
        ),
      },
    ]);
    const done = completed(await run(anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: 'k' })));
    expect(done.text).toBe('hi');
    expect(done.finishReason).toBe('stop');
  });

  it('Gemini: text after an early empty STOP chunk counts; tool-use prompt tokens are input', async () => {
    const server = await servers.start([
      {
        chunks: sse([
          { candidates: [{ content: { parts: [] }, finishReason: 'STOP' }] },
          {
            candidates: [{ content: { parts: [{ text: { a: 1 } }, { text: 'hi' }] }, finishReason: 'STOP' }],
            usageMetadata: { promptTokenCount: 100, toolUsePromptTokenCount: 1000, candidatesTokenCount: 5 },
          },
        ]),
      },
    ]);
    const done = completed(await run(gemini('gemini-2.5-flash', { baseURL: server.url, apiKey: 'k' })));
    expect(done.text).toBe('hi');
    expect(done.finishReason).toBe('stop');
    expect(done.usage).toEqual({ inputTokens: 1100, outputTokens: 5, totalTokens: 1105 });
  });

  it('Gemini: an error after a finish reason is an error; a later STOP does not hide MAX_TOKENS', async () => {
    const late = { error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } };
    const cut = await servers.start([
      {
        chunks: sse([
          { candidates: [{ content: { parts: [{ text: 'The answer is' }] }, finishReason: 'STOP' }] },
          late,
        ]),
      },
    ]);
    const error = await run(
      gemini('gemini-2.5-flash', { baseURL: cut.url, apiKey: 'k', retry: false }),
    ).catch((e: unknown) => e);
    expect((error as Error).name).toBe('RateLimitError');
    const long = await servers.start([
      {
        chunks: sse([
          { candidates: [{ content: { parts: [{ text: 'a' }] }, finishReason: 'MAX_TOKENS' }] },
          { candidates: [{ content: { parts: [] }, finishReason: 'STOP' }] },
        ]),
      },
    ]);
    const done = completed(await run(gemini('gemini-2.5-flash', { baseURL: long.url, apiKey: 'k' })));
    expect(done.finishReason).toBe('length');
  });

  it('Gemini: token counts that are not whole numbers ≥ 0 count as none', async () => {
    const server = await servers.start([
      {
        chunks: sse([
          {
            candidates: [{ content: { parts: [{ text: 'hi' }] }, finishReason: 'STOP' }],
            usageMetadata: { promptTokenCount: '100', candidatesTokenCount: -5, cachedContentTokenCount: 50 },
          },
        ]),
      },
    ]);
    const done = completed(await run(gemini('gemini-2.5-flash', { baseURL: server.url, apiKey: 'k' })));
    expect(done.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(done.cost?.totalUsd ?? 0).toBeGreaterThanOrEqual(0);
  });

  it('OpenAI: cached tokens above the prompt are cut to it, a negative count is none', async () => {
    const model = await openAIStream([
      chunk({ content: 'x' }, 'stop'),
      {
        choices: [],
        usage: {
          prompt_tokens: 100,
          completion_tokens: -1_000_000,
          prompt_tokens_details: { cached_tokens: 5000 },
        },
      },
      '[DONE]',
    ]);
    const done = completed(await run(model));
    expect(done.usage).toEqual({
      inputTokens: 100,
      outputTokens: 0,
      totalTokens: 100,
      cachedInputTokens: 100,
    });
  });
});

describe('requests a wire cannot carry are refused before sending', () => {
  const image = { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' } as const;
  const models: [string, (url: string) => ChatModel][] = [
    ['openai', (url) => openaiCompatible('m', { baseURL: url })],
    ['anthropic', (url) => anthropic('claude-sonnet-4-5', { baseURL: url, apiKey: 'k' })],
    ['gemini', (url) => gemini('gemini-2.5-flash', { baseURL: url, apiKey: 'k' })],
    [
      'bedrock',
      (url) => bedrock('amazon.nova-lite-v1:0', { baseURL: url, region: 'us-east-1', apiKey: 'k' }),
    ],
    ['ollama', (url) => ollama('llama3.2', { baseURL: url })],
  ];

  /** The error `messages` get from `model`, and how many requests reached the server. */
  async function refusal(model: (url: string) => ChatModel, messages: Message[]) {
    const server = await servers.start([{ status: 500 }]);
    const error = await run(model(server.url), messages).catch((e: unknown) => e);
    return { error, sent: server.requests.length };
  }

  it.each(models)('%s: an image in a system message', async (_, model) => {
    const { error, sent } = await refusal(model, [
      { role: 'system', content: [{ type: 'text', text: 'sys' }, image] },
      { role: 'user', content: 'hi' },
    ]);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toMatch(/system message can only carry text, not "image"/);
    expect(sent).toBe(0);
  });

  it.each(models)('%s: a part of an unknown type', async (_, model) => {
    const unknown = { type: 'audio', data: 'AAAA' } as never;
    const { error, sent } = await refusal(model, [
      { role: 'user', content: [{ type: 'text', text: 'hi' }, unknown] },
    ]);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(sent).toBe(0);
  });

  it.each(models.filter(([name]) => name !== 'gemini' && name !== 'ollama'))(
    '%s: a tool message without the id of the call it answers',
    async (_, model) => {
      const { error, sent } = await refusal(model, [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: {} }] },
        { role: 'tool', content: 'done' },
      ]);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(sent).toBe(0);
    },
  );

  it('openai: an image in an assistant message (chat assistant turns are text)', async () => {
    const { error, sent } = await refusal(models[0]![1], [
      { role: 'user', content: 'draw' },
      { role: 'assistant', content: [{ type: 'text', text: 'Here:' }, image] },
      { role: 'user', content: 'thanks' },
    ]);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(sent).toBe(0);
  });

  it('anthropic: a text file whose data is not base64', async () => {
    const { error, sent } = await refusal(models[1]![1], [
      { role: 'user', content: [{ type: 'file', data: 'not base64!', mediaType: 'text/plain' }] },
    ]);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(sent).toBe(0);
  });

  it('ollama: an image in an assistant message goes in its images', async () => {
    const server = await servers.start([
      { chunks: [`${JSON.stringify({ message: { role: 'assistant', content: 'ok' }, done: true })}\n`] },
    ]);
    await run(ollama('llama3.2', { baseURL: server.url }), [
      { role: 'user', content: 'draw' },
      { role: 'assistant', content: [{ type: 'text', text: 'Here:' }, image] },
      { role: 'user', content: 'thanks' },
    ]);
    const body = server.requests[0]?.json as { messages: { role: string; images?: string[] }[] };
    expect(body.messages[1]).toMatchObject({ role: 'assistant', content: 'Here:', images: ['iVBORw0KGgo='] });
  });
});

describe('request checks that were bypassed or missing', () => {
  const settings = { maxOutputTokens: 4096 };
  const toolTurn = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: {} }] },
    { role: 'tool', toolCallId: 'c1', content: 'done' },
  ] as Message[];

  it('anthropic: thinking in the API’s own shape is checked as the option is', () => {
    const wire = { thinking: { type: 'enabled', budget_tokens: 2048 } };
    // A tool turn without a thinking block (after a fallback): this request goes without thinking.
    const adapted = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: toolTurn, temperature: 0.5, providerOptions: { anthropic: wire } },
      { ...settings, wire },
    ) as Record<string, unknown>;
    expect(adapted.thinking).toBeUndefined();
    // With thinking on, the sampling rules apply: no temperature beside it.
    const thinking = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi', temperature: 0.5 },
      { ...settings, wire },
    ) as Record<string, unknown>;
    expect(thinking).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(thinking.temperature).toBeUndefined();
    // Its other fields go on as given (`display`).
    const shown = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi' },
      { ...settings, wire: { thinking: { type: 'enabled', budget_tokens: 2048, display: 'omitted' } } },
    ) as Record<string, unknown>;
    expect(shown.thinking).toEqual({ type: 'enabled', budget_tokens: 2048, display: 'omitted' });
    const off = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi' },
      { ...settings, thinking: { budgetTokens: 2048 }, wire: { thinking: { type: 'disabled' } } },
    ) as Record<string, unknown>;
    expect(off.thinking).toBeUndefined();
  });

  it.each([Number.NaN, 100, 1500.5])(
    'anthropic: a thinking budget of %s is refused with what it must be',
    (budget) => {
      expect(() =>
        toAnthropicRequest(
          'claude-sonnet-4-5',
          { messages: 'hi' },
          { ...settings, thinking: { budgetTokens: budget } },
        ),
      ).toThrow(/a thinking budget must be a whole number of at least 1024 tokens/);
    },
  );

  it('bedrock: document names are valid and unique across the request', () => {
    const doc = (filename?: string) =>
      ({
        type: 'file',
        data: 'JVBERi0=',
        mediaType: 'application/pdf',
        ...(filename ? { filename } : {}),
      }) as const;
    const { messages } = toBedrockMessages([
      { role: 'user', content: [doc('report.pdf'), doc('report.pdf'), doc('my  notes.pdf'), doc()] },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [doc(), doc('report.pdf')] },
    ]);
    const names = messages.flatMap((m) =>
      m.content.flatMap((block) => ('document' in block ? [(block.document as { name: string }).name] : [])),
    );
    expect(names).toEqual(['report', 'report (2)', 'my notes', 'document-4', 'document-5', 'report (3)']);
    expect(new Set(names).size).toBe(names.length);
  });
});
