import { context, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { defer, from, mergeMap } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type ChatModel, defineTool } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

// M7 and m7: with a context manager registered (as every Node OpenTelemetry setup has), the agent's
// spans are active while their work runs, and they follow the GenAI semantic conventions.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('rxagent-test');
const manager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(manager.enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  context.disable();
  trace.disable();
});
afterEach(() => exporter.reset());

const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;
const named = (name: string) => exporter.getFinishedSpans().find((span) => span.name === name);
const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;

/** What a tool's own code (or an instrumented database driver) does: a span of its own. */
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a city up.',
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    const activeAtStart = trace.getActiveSpan();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const span = trace.getTracer('app').startSpan('db.query');
    span.end();
    return {
      city,
      sameActiveAfterAwait: trace.getActiveSpan() === activeAtStart && activeAtStart !== undefined,
    };
  },
});

const broken = defineTool({
  name: 'broken',
  description: 'Always fails.',
  input: z.object({}),
  execute: () => {
    throw new RangeError('no such city');
  },
});

/** A model whose transport is "instrumented": subscribing opens an `http.request` span, as undici's would. */
function instrumented(model: ChatModel): ChatModel {
  return {
    ...model,
    stream: (request, options) =>
      defer(() => {
        const span = trace.getTracer('undici').startSpan('http.request');
        return from(Promise.resolve().then(() => span.end())).pipe(
          mergeMap(() => model.stream(request, options)),
        );
      }),
  };
}

describe('agent spans are active while their work runs (M7)', () => {
  it('makes a tool span and an instrumented driver span children of execute_tool and chat', async () => {
    const model = instrumented(
      scriptedModel(
        [{ toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { city: 'Oslo' } }] }, { text: 'done' }],
        { modelId: 'gpt-test' },
      ),
    );
    const agent = new Agent({ model, tools: [lookup], tracer, name: 'bot' });
    const result = await agent.chat('Oslo?');
    const toolMessage = result.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(toolMessage?.content))).toEqual({ city: 'Oslo', sameActiveAfterAwait: true });
    const spans = exporter.getFinishedSpans();
    const tool = named('execute_tool lookup');
    const chats = spans.filter((span) => span.name === 'chat gpt-test');
    const http = spans.filter((span) => span.name === 'http.request');
    expect(parentOf(named('db.query'))).toBe(idOf(tool));
    expect(http.map(parentOf)).toEqual(chats.map(idOf));
    // One trace for everything.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("makes invoke_agent a child of the caller's active span (e.g. an HTTP server span)", async () => {
    const agent = new Agent({ model: scriptedModel([{ text: 'hi' }]), tracer });
    await tracer.startActiveSpan('POST /chat', async (server: Span) => {
      await agent.chat('hello');
      server.end();
    });
    expect(parentOf(named('invoke_agent'))).toBe(idOf(named('POST /chat')));
  });
});

describe('GenAI semantic conventions (m7)', () => {
  it('sets span kinds, an error status on a failed tool, request parameters, response id and run usage', async () => {
    const model = scriptedModel(
      [
        {
          toolCalls: [{ id: 'call_1', name: 'broken', arguments: {} }],
          usage: { inputTokens: 10, outputTokens: 2 },
          responseId: 'resp_1',
        },
        { text: 'sorry', usage: { inputTokens: 15, outputTokens: 3 }, responseId: 'resp_2' },
      ],
      { modelId: 'gpt-test', provider: 'openai' },
    );
    const agent = new Agent({ model, tools: [broken], tracer, temperature: 0.2, maxOutputTokens: 256 });
    await agent.chat('go');
    const run = named('invoke_agent');
    const chats = exporter.getFinishedSpans().filter((span) => span.name === 'chat gpt-test');
    const tool = named('execute_tool broken');
    expect(chats.map((span) => span.kind)).toEqual([SPAN_KIND_CLIENT, SPAN_KIND_CLIENT]);
    expect([run?.kind, tool?.kind]).toEqual([SPAN_KIND_INTERNAL, SPAN_KIND_INTERNAL]);
    expect(chats.map((span) => span.attributes['gen_ai.response.id'])).toEqual(['resp_1', 'resp_2']);
    expect(chats[0]?.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 256,
    });
    expect(tool?.status.code).toBe(2);
    expect(tool?.attributes).toMatchObject({ 'error.type': 'RangeError', 'gen_ai.tool.type': 'function' });
    expect(run?.status.code).toBe(1);
    expect(run?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 25,
      'gen_ai.usage.output_tokens': 5,
    });
  });

  it.each([
    ['gemini', 'gcp.gemini'],
    ['bedrock', 'aws.bedrock'],
    ['azure-openai', 'azure.ai.openai'],
    ['anthropic', 'anthropic'],
  ])('names provider %s as %s', async (id, wellKnown) => {
    const agent = new Agent({ model: scriptedModel([{ text: 'hi' }], { provider: id }), tracer });
    await agent.chat('x');
    for (const name of ['invoke_agent', 'chat scripted-model'])
      expect(named(name)?.attributes['gen_ai.provider.name']).toBe(wellKnown);
  });
});
