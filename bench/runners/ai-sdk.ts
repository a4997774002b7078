// The Vercel AI SDK: streamText with @ai-sdk/openai (.chat → chat completions) or @ai-sdk/anthropic,
// consuming fullStream.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, type LanguageModel, streamText, type ToolSet, tool } from 'ai';
import { BENCH_TOOLS, baseURLFor, type ModeSpec, modelIdFor } from '../lib/modes.ts';
import { runBenchmark, type StreamOutcome } from '../lib/runner-harness.ts';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const tools: ToolSet = Object.fromEntries(
  BENCH_TOOLS.map((t) => [
    t.name,
    tool({ description: t.description, inputSchema: jsonSchema<Record<string, unknown>>(t.parameters) }),
  ]),
);

const models = new Map<string, LanguageModel>();
function modelFor(spec: ModeSpec, origin: string): LanguageModel {
  let model = models.get(spec.mode);
  if (!model) {
    const baseURL = baseURLFor(origin, spec, 'v1');
    model =
      spec.wire === 'openai'
        ? createOpenAI({ baseURL, apiKey: 'bench' }).chat(modelIdFor(spec))
        : createAnthropic({ baseURL, apiKey: 'bench' }).chat(modelIdFor(spec));
    models.set(spec.mode, model);
  }
  return model;
}

async function streamOnce(spec: ModeSpec, origin: string): Promise<StreamOutcome> {
  const out: StreamOutcome = {
    deltas: 0,
    text: '',
    toolCalls: [],
    finishReason: '',
    firstDeltaAt: undefined,
  };
  const result = streamText({
    model: modelFor(spec, origin),
    prompt: 'hi',
    maxRetries: 0,
    ...(spec.kind === 'tools' ? { tools } : {}),
  });
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        if (part.text) {
          out.firstDeltaAt ??= performance.now();
          out.deltas++;
          out.text += part.text;
        }
        break;
      case 'tool-input-delta':
        if (part.delta) {
          out.firstDeltaAt ??= performance.now();
          out.deltas++;
        }
        break;
      case 'tool-call':
        out.toolCalls.push({ id: part.toolCallId, name: part.toolName, args: part.input });
        break;
      case 'finish':
        out.finishReason = part.finishReason;
        break;
      case 'error':
        throw part.error instanceof Error ? part.error : new Error(JSON.stringify(part.error));
      default:
        break;
    }
  }
  return out;
}

await runBenchmark('ai', streamOnce);
