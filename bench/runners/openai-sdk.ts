// The official openai SDK: chat.completions.create({ stream: true }), iterating chunks.
import OpenAI from 'openai';
import { BENCH_TOOLS, baseURLFor, type ModeSpec, modelIdFor } from '../lib/modes.ts';
import { runBenchmark, type StreamOutcome } from '../lib/runner-harness.ts';
import { addOpenAIChunk, type PendingCalls, parsedCalls } from '../lib/openai-chunks.ts';

const clients = new Map<string, OpenAI>();
const clientFor = (baseURL: string): OpenAI => {
  let client = clients.get(baseURL);
  if (!client) {
    client = new OpenAI({ apiKey: 'bench', baseURL, maxRetries: 0 });
    clients.set(baseURL, client);
  }
  return client;
};

async function streamOnce(spec: ModeSpec, origin: string): Promise<StreamOutcome> {
  if (spec.wire !== 'openai') throw new Error('the openai SDK runner only speaks the OpenAI wire format');
  const out: StreamOutcome = {
    deltas: 0,
    text: '',
    toolCalls: [],
    finishReason: '',
    firstDeltaAt: undefined,
  };
  const calls: PendingCalls = [];
  const stream = await clientFor(baseURLFor(origin, spec, 'v1')).chat.completions.create({
    model: modelIdFor(spec),
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    stream_options: { include_usage: true },
    ...(spec.kind === 'tools'
      ? { tools: BENCH_TOOLS.map((t) => ({ type: 'function' as const, function: { ...t } })) }
      : {}),
  });
  for await (const chunk of stream) addOpenAIChunk(chunk, out, calls);
  out.toolCalls = parsedCalls(calls);
  return out;
}

await runBenchmark('openai', streamOnce);
