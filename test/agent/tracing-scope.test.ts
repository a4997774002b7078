import { context, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, memorySessionStore, type SessionStore } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

// M7's other half: a span is active while its own work runs and no longer. Work after it (the
// session append after the last tool, the caller's subscriber) must not run under a span that has
// ended, or a database driver's span for the append, and every span the caller starts while
// handling an event, become children of an `execute_tool` or `chat` span that is already over.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('rxagent-test');

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  context.disable();
  trace.disable();
});
afterEach(() => exporter.reset());

const named = (name: string) => exporter.getFinishedSpans().find((span) => span.name === name);
const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;
const activeName = () => (trace.getActiveSpan() as unknown as { name?: string } | undefined)?.name;

const slow = defineTool({
  name: 'slow',
  description: 'Takes a moment.',
  input: z.object({}),
  execute: async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    return 'ok';
  },
});

/** A session store whose append does what an instrumented driver does: a span of its own. */
function instrumentedStore(): SessionStore {
  const inner = memorySessionStore();
  return {
    get: (id) => inner.get(id),
    append: async (id, messages, options) => {
      const span = trace.getTracer('pg').startSpan('db.append');
      span.end();
      return inner.append(id, messages, options);
    },
    delete: (id) => inner.delete(id),
    prune: (ms) => inner.prune(ms),
  };
}

describe('agent spans are active only while their own work runs', () => {
  it("runs the session append under invoke_agent and the caller's handlers under the caller's span", async () => {
    const model = scriptedModel(
      [{ toolCalls: [{ id: 'call_1', name: 'slow', arguments: {} }] }, { text: 'done' }],
      { modelId: 'm' },
    );
    const agent = new Agent({ model, tools: [slow], tracer, sessions: instrumentedStore(), name: 'bot' });
    const activeInHandler: (string | undefined)[] = [];
    await tracer.startActiveSpan('POST /chat', async (server: Span) => {
      await new Promise<void>((resolve, reject) =>
        agent.run('hi', { sessionId: 's1' }).subscribe({
          next: (event) => {
            activeInHandler.push(activeName());
            // What a caller does with an event: e.g. write it out, inside its own span.
            if (event.type === 'tool-result') trace.getTracer('app').startSpan('sse.write').end();
          },
          error: reject,
          complete: resolve,
        }),
      );
      server.end();
    });
    expect(parentOf(named('db.append'))).toBe(idOf(named('invoke_agent bot')));
    expect(parentOf(named('sse.write'))).toBe(idOf(named('POST /chat')));
    expect(new Set(activeInHandler)).toEqual(new Set(['POST /chat']));
  });

  it('leaves no agent span active in handlers when the caller had none, also on failure', async () => {
    const failing = defineTool({
      name: 'failing',
      description: 'Fails.',
      input: z.object({}),
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error('nope');
      },
    });
    const model = scriptedModel(
      [
        { toolCalls: [{ id: 'call_1', name: 'failing', arguments: {} }] },
        { error: new Error('provider down') },
      ],
      { modelId: 'm' },
    );
    const agent = new Agent({ model, tools: [failing], tracer });
    const activeInHandler: (string | undefined)[] = [];
    const failure = await new Promise<unknown>((resolve) =>
      agent.run('hi').subscribe({
        next: () => activeInHandler.push(activeName()),
        error: (error: unknown) => {
          activeInHandler.push(activeName());
          resolve(error);
        },
      }),
    );
    expect(String(failure)).toContain('provider down');
    expect(activeInHandler.filter((name) => name !== undefined)).toEqual([]);
  });
});
