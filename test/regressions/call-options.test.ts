// Issue 7, per-call control: CallOptions reach every provider, headers merge case-insensitively,
// a missing key fails before sending, and a stalled connection has a default idle timeout.
import { readFileSync } from 'node:fs';
import { lastValueFrom, NEVER, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ChatModel,
  fallback,
  IncompleteStreamError,
  InvalidRequestError,
  TimeoutError,
} from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { bedrock } from '../../src/providers/bedrock/index.ts';
import { gemini } from '../../src/providers/gemini/index.ts';
import { ollama } from '../../src/providers/ollama/index.ts';
import { azureOpenAI, openai, openaiCompatible } from '../../src/providers/openai/index.ts';
import { sseDecoder } from '../../src/operators/index.ts';
import { DEFAULT_IDLE_TIMEOUT_MS, providerStream } from '../../src/providers/shared/index.ts';
import { createScheduler } from '../../marbles/support/helpers.ts';
import { settle } from '../support/settle.ts';
import type { ScriptedResponse } from '../support/transcript-server.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const fixture = (path: string) => readFileSync(new URL(`../providers/${path}`, import.meta.url), 'utf8');
const openaiText: ScriptedResponse = { chunks: [fixture('openai/fixtures/text.sse')] };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('CallOptions reach every provider', () => {
  const servers = useTranscriptServer();

  it('call headers are sent by openai, compatible, azure, anthropic, gemini, ollama and bedrock', async () => {
    const server = await servers.start((request) => {
      if (request.url.startsWith('/ollama'))
        return {
          chunks: ['{"message":{"content":"hi"},"done":false}\n{"done":true,"done_reason":"stop"}\n'],
        };
      return { status: 500, chunks: ['{}'] };
    });
    const base = server.url;
    const models: ChatModel[] = [
      openai('gpt-4o', { baseURL: `${base}/openai`, apiKey: 'k' }),
      openaiCompatible('m', { baseURL: `${base}/compatible` }),
      azureOpenAI('dep', { baseURL: `${base}/azure`, apiKey: 'k' }),
      anthropic('claude-sonnet-4-5', { baseURL: `${base}/anthropic`, apiKey: 'k' }),
      gemini('gemini-2.5-flash', { baseURL: `${base}/gemini`, apiKey: 'k' }),
      ollama('llama3.2', { baseURL: `${base}/ollama` }),
      bedrock('amazon.nova-lite-v1:0', { baseURL: `${base}/bedrock`, region: 'us-east-1', apiKey: 'k' }),
    ];
    for (const model of models) {
      await settle(model.stream({ messages: 'hi' }, { headers: { 'X-Call': model.provider }, retry: false }));
    }
    // retry: false from the call: exactly one request per model although the model's default retries twice.
    expect(server.requests.map((r) => r.headers['x-call'])).toEqual(models.map((m) => m.provider));
  });

  it('a call header wins over the model header and the key, case-insensitively, and is never doubled', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');
    const server = await servers.start([openaiText]);
    const model = openai('gpt-4o', {
      baseURL: server.url,
      headers: { Authorization: 'Bearer proxy', 'X-Trace': 'model' },
    });
    await model.complete({ messages: 'hi' });
    await model.complete(
      { messages: 'hi' },
      { headers: { 'x-trace': 'call', 'Content-Type': 'application/json' } },
    );
    expect(server.requests[0]?.headers.authorization).toBe('Bearer proxy');
    expect(server.requests[0]?.headers['x-trace']).toBe('model');
    expect(server.requests[1]?.headers.authorization).toBe('Bearer proxy');
    expect(server.requests[1]?.headers['x-trace']).toBe('call');
    expect(server.requests[1]?.headers['content-type']).toBe('application/json');
  });

  it('aborting the signal aborts the request; complete() rejects with the reason', async () => {
    const server = await servers.start([
      { chunks: ['data: {"choices":[{"delta":{"content":"a"}}]}\n\n'], hold: true },
    ]);
    const controller = new AbortController();
    const reason = new Error('user left');
    const aborted = server.nextClientAbort();
    const pending = openai('gpt-4o', { baseURL: server.url, apiKey: 'k' }).complete(
      { messages: 'hi' },
      { signal: controller.signal },
    );
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await aborted;
    expect(server.clientAborts).toBe(1);
  });

  it('an already-aborted signal sends nothing, through fallback too', async () => {
    const server = await servers.start([openaiText]);
    const signal = AbortSignal.abort(new Error('cancelled'));
    const model = openai('gpt-4o', { baseURL: server.url, apiKey: 'k' });
    await expect(model.complete({ messages: 'hi' }, { signal })).rejects.toThrow('cancelled');
    const both = fallback([model, openai('gpt-4o-mini', { baseURL: server.url, apiKey: 'k' })]);
    await expect(both.complete({ messages: 'hi' }, { signal })).rejects.toThrow('cancelled');
    expect(server.requests).toHaveLength(0);
  });

  it('fallback passes the CallOptions to every model it tries', async () => {
    const down = await servers.start([{ status: 503, chunks: ['{}'] }]);
    const up = await servers.start([{ chunks: [fixture('openai/fixtures/tool-call.sse')] }]);
    const model = fallback([
      openai('gpt-4o', { baseURL: down.url, apiKey: 'k' }),
      openai('gpt-4o-mini', { baseURL: up.url, apiKey: 'k' }),
    ]);
    const events = await lastValueFrom(
      model
        .stream({ messages: 'hi' }, { headers: { 'x-call': '1' }, retry: false, emitToolCallDeltas: true })
        .pipe(toArray()),
    );
    expect(down.requests).toHaveLength(1);
    expect(down.requests[0]?.headers['x-call']).toBe('1');
    expect(up.requests[0]?.headers['x-call']).toBe('1');
    expect(events.some((e) => e.type === 'tool-call-delta')).toBe(true);
  });

  it('a per-call timeoutMs overrides the model default', async () => {
    const server = await servers.start([{ chunks: [fixture('openai/fixtures/text.sse')], delayMs: 2000 }]);
    const error = await openai('gpt-4o', { baseURL: server.url, apiKey: 'k' })
      .complete({ messages: 'hi' }, { timeoutMs: 50, retry: false })
      .catch((e: unknown) => e);
    expect(TimeoutError.is(error)).toBe(true);
    expect(error).toMatchObject({ timeoutMs: 50 });
  });
});

describe('a missing API key', () => {
  const servers = useTranscriptServer();

  it.each([
    ['openai', () => openai('gpt-4o', { baseURL: servers.url }), 'OPENAI_API_KEY'],
    ['azure-openai', () => azureOpenAI('dep', { baseURL: servers.url }), 'AZURE_OPENAI_API_KEY'],
    ['anthropic', () => anthropic('claude-sonnet-4-5', { baseURL: servers.url }), 'ANTHROPIC_API_KEY'],
    ['gemini', () => gemini('gemini-2.5-flash', { baseURL: servers.url }), 'GOOGLE_GENERATIVE_AI_API_KEY'],
  ] as const)('%s: InvalidRequestError at subscribe, nothing sent', async (_, create, variable) => {
    for (const name of [
      'OPENAI_API_KEY',
      'AZURE_OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GOOGLE_GENERATIVE_AI_API_KEY',
      'GEMINI_API_KEY',
    ])
      vi.stubEnv(name, '');
    const server = await servers.start([openaiText]);
    const stream = create().stream({ messages: 'hi' });
    const { events, error } = await settle(stream);
    expect(events).toEqual([]);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_request', option: 'apiKey', environmentVariable: variable });
    expect((error as Error).message).toContain(variable);
    expect(server.requests).toHaveLength(0);
  });
});

/** A mapper that saw no terminal event, as every provider's is before the first byte. */
const unfinishedMapper = () => ({
  map: () => [],
  end: (): never => {
    throw new IncompleteStreamError();
  },
});

describe('the default idle timeout', () => {
  it('is 10 minutes: a connection that never sends a byte errors with TimeoutError then', () => {
    expect(DEFAULT_IDLE_TIMEOUT_MS).toBe(600_000);
    createScheduler().run(({ expectObservable }) => {
      const stalled = providerStream({
        provider: 'test',
        model: 'm',
        client: { provider: 'test', stream: () => NEVER },
        options: { retry: false },
        http: () => ({ url: 'http://127.0.0.1/', body: {} }),
        decoder: sseDecoder(),
        createMapper: unfinishedMapper,
      });
      expectObservable(stalled).toBe('600000ms #', undefined, new TimeoutError(600_000));
    });
  });

  it('timeoutMs: Infinity waits for ever', () => {
    createScheduler().run(({ expectObservable }) => {
      const stalled = providerStream({
        provider: 'test',
        model: 'm',
        client: { provider: 'test', stream: () => NEVER },
        options: { retry: false, timeoutMs: Number.POSITIVE_INFINITY },
        http: () => ({ url: 'http://127.0.0.1/', body: {} }),
        decoder: sseDecoder(),
        createMapper: unfinishedMapper,
      });
      expectObservable(stalled, '^ 700000ms !').toBe('');
    });
  });
});
