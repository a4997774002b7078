// The official openai SDK: chat.completions.create({ stream: true }), iterating chunks.
import OpenAI from 'openai';
import { BENCH_TOOLS, baseURLFor, type ModeSpec, modelIdFor } from '../lib/modes.ts';
import { runBenchmark, type StreamOutcome } from '../lib/runner-harness.ts';

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
  const calls: { id: string; name: string; args: string }[] = [];
  const stream = await clientFor(baseURLFor(origin, spec, 'v1')).chat.completions.create({
    model: modelIdFor(spec),
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    stream_options: { include_usage: true },
    ...(spec.kind === 'tools'
      ? { tools: BENCH_TOOLS.map((t) => ({ type: 'function' as const, function: { ...t } })) }
      : {}),
  });
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    const { content, tool_calls } = choice.delta;
    if (content) {
      out.firstDeltaAt ??= performance.now();
      out.deltas++;
      out.text += content;
    }
    if (tool_calls) {
      for (const tc of tool_calls) {
        let call = calls[tc.index];
        if (!call) {
          call = { id: '', name: '', args: '' };
          calls[tc.index] = call;
        }
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name = tc.function.name;
        const fragment = tc.function?.arguments;
        if (fragment) {
          out.firstDeltaAt ??= performance.now();
          out.deltas++;
          call.args += fragment;
        }
      }
    }
    if (choice.finish_reason) out.finishReason = choice.finish_reason;
  }
  out.toolCalls = calls.map((c) => ({
    id: c.id,
    name: c.name,
    args: c.args.trim() ? JSON.parse(c.args) : {},
  }));
  return out;
}

await runBenchmark('openai', streamOnce);
