import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, IncompleteStreamError, StreamParseError, TimeoutError } from '../../../src/index.ts';
import { ollama } from '../../../src/providers/ollama/index.ts';
import { settle } from '../../support/settle.ts';
import { randomSplit } from '../../support/split.ts';
import type { ScriptedResponse } from '../../support/transcript-server.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { ollamaFixture } from './contract-fixture.ts';

const ndjson = { 'content-type': 'application/x-ndjson' };
const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const done = (extra: Record<string, unknown> = {}) =>
  line({ model: 'llama3.2', message: { role: 'assistant', content: '' }, done: true, ...extra });
const body = (text: string, seed = 1): ScriptedResponse => ({
  headers: ndjson,
  chunks: randomSplit(text, seed),
});

describe('ollama()', () => {
  const servers = useTranscriptServer();
  const savedHost = process.env.OLLAMA_HOST;
  afterEach(() => {
    if (savedHost === undefined) delete process.env.OLLAMA_HOST;
    else process.env.OLLAMA_HOST = savedHost;
  });

  it('posts to /api/chat on a host given without scheme, with the bearer key and headers', async () => {
    const server = await servers.start([body(ollamaFixture.transcripts.text)]);
    const host = server.url.replace('http://', '');
    const model = ollama('llama3.2', { baseURL: host, apiKey: 'k-1', headers: { 'x-team': 'a' } });
    const response = await model.complete({ messages: 'Hi', temperature: 0 });
    expect(response).toMatchObject({
      text: 'Hello! How can I help you today?',
      finishReason: 'stop',
      rawFinishReason: 'stop',
      provider: 'ollama',
      model: 'llama3.2',
      usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 },
    });
    expect(response).not.toHaveProperty('cost');
    const request = server.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/chat');
    expect(request?.headers).toMatchObject({ authorization: 'Bearer k-1', 'x-team': 'a' });
    expect(request?.json).toEqual({
      model: 'llama3.2',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
      options: { temperature: 0 },
    });
  });

  it('reads OLLAMA_HOST when no baseURL is given, and sends no authorization without a key', async () => {
    const server = await servers.start([body(ollamaFixture.transcripts.text)]);
    process.env.OLLAMA_HOST = server.url.replace('http://', '');
    const savedKey = process.env.OLLAMA_API_KEY;
    delete process.env.OLLAMA_API_KEY;
    try {
      await ollama('llama3.2').complete({ messages: 'Hi' });
    } finally {
      if (savedKey !== undefined) process.env.OLLAMA_API_KEY = savedKey;
    }
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('streams thinking and tool calls; ids are generated; deltas on request carry JSON text', async () => {
    const transcript =
      line({ message: { role: 'assistant', content: '', thinking: 'Need weather.' }, done: false }) +
      line({
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [
            { function: { name: 'get_weather', arguments: { city: 'Paris' } } },
            { id: 'own-id', function: { name: 'get_time', arguments: {} } },
          ],
        },
        done: false,
      }) +
      done({ done_reason: 'stop', prompt_eval_count: 5, eval_count: 7 });
    const server = await servers.start([body(transcript, 3)]);
    const model = ollama('qwen3', { baseURL: server.url });
    const events = await lastValueFrom(
      model.stream({ messages: 'x' }, { emitToolCallDeltas: true }).pipe(toArray()),
    );
    expect(events.slice(0, -1)).toEqual([
      { type: 'reasoning-delta', text: 'Need weather.' },
      {
        type: 'tool-call-delta',
        index: 0,
        id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
        name: 'get_weather',
        argumentsDelta: '{"city":"Paris"}',
      },
      { type: 'tool-call-delta', index: 1, id: 'own-id', name: 'get_time', argumentsDelta: '{}' },
      {
        type: 'tool-calls-ready',
        toolCalls: [
          {
            id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
            name: 'get_weather',
            arguments: { city: 'Paris' },
          },
          { id: 'own-id', name: 'get_time', arguments: {} },
        ],
      },
    ]);
    const last = events.at(-1);
    expect(last?.type === 'stream-completed' && last.response).toMatchObject({
      finishReason: 'tool-calls',
      reasoning: 'Need weather.',
      message: { role: 'assistant', metadata: { reasoning: 'Need weather.' } },
    });
    expect(server.requests[0]?.json).toMatchObject({ model: 'qwen3' });
  });

  it('maps done_reason length and unknown reasons, reports another model name, prices when given', async () => {
    const server = await servers.start([
      body(line({ message: { content: 'abc' } }) + done({ done_reason: 'length', eval_count: 2_000_000 })),
      body(done({ done_reason: 'unload', model: 'llama3.2:latest' })),
    ]);
    const model = ollama('llama3.2', {
      baseURL: server.url,
      price: { inputPerMTok: 0, outputPerMTok: 1 },
    });
    const first = await model.complete({ messages: 'x' });
    expect(first).toMatchObject({ finishReason: 'length', cost: { outputUsd: 2, totalUsd: 2 } });
    const second = await model.complete({ messages: 'x' });
    expect(second).toMatchObject({
      finishReason: 'other',
      rawFinishReason: 'unload',
      model: 'llama3.2:latest',
    });
  });

  it('ignores unknown fields and lines, and anything after done', async () => {
    const transcript =
      line({ message: { role: 'assistant', content: 'A', images: null, future: { x: 1 } }, extra: true }) +
      line({ status: 'loading model' }) +
      line({ message: { content: 'B' }, done: false }) +
      done({ done_reason: 'stop' }) +
      line({ message: { content: 'late' } });
    const server = await servers.start([body(transcript)]);
    const response = await ollama('m', { baseURL: server.url }).complete({ messages: 'x' });
    expect(response.text).toBe('AB');
    expect(response).not.toHaveProperty('usage');
  });

  it('errors with StreamParseError carrying the raw line for malformed JSON', async () => {
    const server = await servers.start([body(`${line({ message: { content: 'A' } })}{"message": {oops}\n`)]);
    const { events, error } = await settle(ollama('m', { baseURL: server.url }).stream({ messages: 'x' }));
    expect(events).toEqual([{ type: 'text-delta', text: 'A' }]);
    expect(StreamParseError.is(error)).toBe(true);
    expect((error as StreamParseError).raw).toBe('{"message": {oops}');
  });

  it('errors with a typed error for an HTML page, a non-object line, or an empty body on 200', async () => {
    const server = await servers.start([
      {
        headers: { 'content-type': 'text/html' },
        chunks: ['<!DOCTYPE html>\n<html><body>Proxy login</body></html>\n'],
      },
      body('[1,2]\n'),
      { headers: ndjson, chunks: [] },
    ]);
    const model = ollama('m', { baseURL: server.url, retry: false });
    const html = await model.complete({ messages: 'x' }).catch((e: unknown) => e);
    expect(StreamParseError.is(html)).toBe(true);
    expect((html as StreamParseError).raw).toBe('<!DOCTYPE html>');
    const array = await model.complete({ messages: 'x' }).catch((e: unknown) => e);
    expect((array as StreamParseError).raw).toBe('[1,2]');
    const empty = await model.complete({ messages: 'x' }).catch((e: unknown) => e);
    expect(IncompleteStreamError.is(empty)).toBe(true);
  });

  it('retries a body cut mid-line before any event (clean close), like an SSE body cut short', async () => {
    const cutBody = { headers: ndjson, chunks: ['{"model":"llama3.2","message":{"role":"assistant","conte'] };
    const server = await servers.start([cutBody, cutBody, body(ollamaFixture.transcripts.text)]);
    const cut = await ollama('m', { baseURL: server.url, retry: false })
      .complete({ messages: 'x' })
      .catch((e: unknown) => e);
    expect(IncompleteStreamError.is(cut)).toBe(true);
    expect((cut as IncompleteStreamError).raw).toBe(
      '{"model":"llama3.2","message":{"role":"assistant","conte',
    );
    const model = ollama('m', { baseURL: server.url, retry: { maxRetries: 1, initialDelayMs: 1 } });
    const response = await model.complete({ messages: 'x' });
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(server.requests).toHaveLength(3);
  });

  it('retries an error line that comes before any output, then streams', async () => {
    const server = await servers.start([
      body(line({ error: 'llama runner process has terminated' })),
      body(ollamaFixture.transcripts.text),
    ]);
    const model = ollama('m', { baseURL: server.url, retry: { maxRetries: 1, initialDelayMs: 1 } });
    const response = await model.complete({ messages: 'x' });
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 404 model-not-found and keeps Ollama’s message', async () => {
    const server = await servers.start([
      {
        status: 404,
        headers: { 'content-type': 'application/json' },
        chunks: [line({ error: 'model "nope" not found, try pulling it first' })],
      },
    ]);
    const error = await ollama('nope', { baseURL: server.url, retry: { maxRetries: 2, initialDelayMs: 1 } })
      .complete({ messages: 'x' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, provider: 'ollama' });
    expect((error as Error).message).toContain('not found, try pulling it first');
    expect(server.requests).toHaveLength(1);
  });

  it('times out when the server goes silent', async () => {
    const server = await servers.start([
      { headers: ndjson, chunks: [line({ message: { content: 'A' } })], hold: true },
    ]);
    const aborted = server.nextClientAbort();
    const { events, error } = await settle(
      ollama('m', { baseURL: server.url, timeoutMs: 100, retry: false }).stream({ messages: 'x' }),
    );
    expect(events).toEqual([{ type: 'text-delta', text: 'A' }]);
    expect(TimeoutError.is(error)).toBe(true);
    await aborted;
  });

  it('unsubscribing aborts the request', async () => {
    const server = await servers.start([
      { headers: ndjson, chunks: [line({ message: { content: 'A' } })], hold: true },
    ]);
    const aborted = server.nextClientAbort();
    const first = await firstValueFrom(ollama('m', { baseURL: server.url }).stream({ messages: 'x' }));
    expect(first).toEqual({ type: 'text-delta', text: 'A' });
    await aborted;
    expect(server.clientAborts).toBe(1);
  });

  it('is cold and exposes capabilities, overridable', async () => {
    const server = await servers.start([body(ollamaFixture.transcripts.text)]);
    const model = ollama('llava', { baseURL: server.url, capabilities: { tools: true } });
    model.stream({ messages: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests).toHaveLength(0);
    expect(model).toMatchObject({ provider: 'ollama', modelId: 'llava' });
    expect(model.capabilities).toEqual({
      streaming: true,
      tools: true,
      vision: true,
      json: true,
      reasoning: false,
    });
  });

  it('sends requests through a given fetch', async () => {
    const server = await servers.start([body(ollamaFixture.transcripts.text)]);
    const urls: string[] = [];
    const viaFetch: typeof fetch = (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    await ollama('m', { baseURL: server.url, fetch: viaFetch }).complete({ messages: 'x' });
    expect(urls).toEqual([`${server.url}/api/chat`]);
  });

  it('sends model-level think, keep_alive and options, overridden per request', async () => {
    const server = await servers.start([body(ollamaFixture.transcripts.text)]);
    const model = ollama('qwen3', {
      baseURL: server.url,
      think: true,
      keepAlive: '10m',
      options: { num_ctx: 8192 },
    });
    await model.complete({
      messages: 'x',
      maxOutputTokens: 10,
      providerOptions: { ollama: { think: false, num_ctx: 2048 }, openai: { seed: 9 } },
    });
    expect(server.requests[0]?.json).toMatchObject({
      think: false,
      keep_alive: '10m',
      options: { num_ctx: 2048, num_predict: 10 },
    });
  });
});
