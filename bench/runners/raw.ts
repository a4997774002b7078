// The floor: fetch + eventsource-parser + JSON.parse, reading response.body with a reader
// (the parsing loop is lib/raw-consumer.ts, shared with cpu.ts).
import { BENCH_TOOLS, endpointFor, type ModeSpec, modelIdFor } from '../lib/modes.ts';
import { createRawConsumer } from '../lib/raw-consumer.ts';
import { runBenchmark, type StreamOutcome } from '../lib/runner-harness.ts';

function requestBody(spec: ModeSpec): string {
  const messages = [{ role: 'user', content: 'hi' }];
  if (spec.wire === 'openai') {
    return JSON.stringify({
      model: modelIdFor(spec),
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(spec.kind === 'tools'
        ? { tools: BENCH_TOOLS.map((t) => ({ type: 'function', function: t })) }
        : {}),
    });
  }
  return JSON.stringify({
    model: modelIdFor(spec),
    max_tokens: 64_000,
    messages,
    stream: true,
    ...(spec.kind === 'tools'
      ? {
          tools: BENCH_TOOLS.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.parameters,
          })),
        }
      : {}),
  });
}

async function streamOnce(spec: ModeSpec, origin: string): Promise<StreamOutcome> {
  const consumer = createRawConsumer(spec);
  const headers: Record<string, string> =
    spec.wire === 'openai'
      ? { 'content-type': 'application/json', authorization: 'Bearer bench' }
      : { 'content-type': 'application/json', 'x-api-key': 'bench', 'anthropic-version': '2023-06-01' };
  const res = await fetch(endpointFor(origin, spec), { method: 'POST', headers, body: requestBody(spec) });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    consumer.feed(value);
  }
  return consumer.finish();
}

await runBenchmark('raw', streamOnce);
