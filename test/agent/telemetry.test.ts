import {
  type ReadableSpan,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentLogger, defineTool, NetworkError } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('rxagent-test');
afterEach(() => exporter.reset());

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather.',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 18 }),
});
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('tracing (OpenTelemetry GenAI conventions)', () => {
  it('one span per run, step and tool call, with the GenAI attributes', async () => {
    const model = scriptedModel(
      [
        {
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
          usage: { inputTokens: 12, outputTokens: 3 },
        },
        { text: '18 °C', usage: { inputTokens: 20, outputTokens: 4 } },
      ],
      { modelId: 'gpt-test' },
    );
    const agent = new Agent({ model, tools: [weather], tracer, name: 'weather-bot' });
    await agent.chat('Oslo?');
    const spans = exporter.getFinishedSpans();
    const run = spans.find((span) => span.name === 'invoke_agent weather-bot');
    const chats = spans.filter((span) => span.name === 'chat gpt-test');
    const tool = spans.find((span) => span.name === 'execute_tool get_weather');
    expect(run?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.agent.name': 'weather-bot',
    });
    expect(chats.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-test',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 3,
      }),
      expect.objectContaining({ 'gen_ai.usage.input_tokens': 20, 'gen_ai.usage.output_tokens': 4 }),
    ]);
    expect(tool?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_1',
      'rxagent.tool.status': 'ok',
    });
    const runId = run?.spanContext().spanId;
    expect([...chats, tool].map((span) => span && parentOf(span))).toEqual([runId, runId, runId]);
    expect(spans.every((span) => span.status.code === 1)).toBe(true);
  });

  it('unsubscribing closes the open spans as cancelled; an error closes them as errors', async () => {
    const model = scriptedModel([{ text: ['a', 'b'] }], { delayMs: 50 });
    const agent = new Agent({ model, tracer });
    await firstValueFrom(agent.run('x').pipe(filter((event) => event.type === 'text-delta')));
    const cancelled = exporter.getFinishedSpans();
    expect(cancelled.map((span) => [span.name, span.status.code, span.attributes['error.type']])).toEqual([
      ['chat scripted-model', 2, 'cancelled'],
      ['invoke_agent', 2, 'cancelled'],
    ]);
    exporter.reset();
    const failing = new Agent({ model: scriptedModel([{ error: new NetworkError('down') }]), tracer });
    await expect(failing.chat('x')).rejects.toBeInstanceOf(NetworkError);
    const failed = exporter.getFinishedSpans();
    expect(failed.map((span) => [span.name, span.status.code, span.attributes['error.type']])).toEqual([
      ['chat scripted-model', 2, 'NetworkError'],
      ['invoke_agent', 2, 'NetworkError'],
    ]);
    expect(failed[0]?.events.map((event) => event.name)).toEqual(['exception']);
  });
});

describe('logging (pino-compatible)', () => {
  it('debug lines for each finished step and tool call', async () => {
    const lines: [string, object][] = [];
    const record = (level: string) => (fields: object, message?: string) =>
      lines.push([`${level} ${message}`, fields]);
    const logger: AgentLogger = {
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    };
    const model = scriptedModel([
      { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'ok' },
    ]);
    await new Agent({ model, tools: [weather], logger }).chat('x');
    expect(lines.map(([line]) => line)).toEqual([
      'debug step completed',
      'debug tool call ended',
      'debug step completed',
    ]);
    expect(lines[1]?.[1]).toMatchObject({ step: 1, tool: 'get_weather', toolCallId: 'call_1', status: 'ok' });
  });

  it('warns on a restarted step and logs the failure of a run', async () => {
    const lines: [string, string | undefined][] = [];
    const logger: AgentLogger = {
      debug: (_fields, message) => lines.push(['debug', message]),
      info: (_fields, message) => lines.push(['info', message]),
      warn: (_fields, message) => lines.push(['warn', message]),
      error: (_fields, message) => lines.push(['error', message]),
    };
    const model = scriptedModel([
      { text: ['par'], error: new NetworkError('reset') },
      { text: ['tial'], error: new NetworkError('reset again') },
    ]);
    const agent = new Agent({ model, logger });
    await expect(agent.chat('x')).rejects.toBeInstanceOf(NetworkError);
    expect(lines).toEqual([
      ['warn', 'step restarted'],
      ['error', 'agent run failed'],
    ]);
  });
});
