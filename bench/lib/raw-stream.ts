// The raw runner's request and read loop: fetch + eventsource-parser + JSON.parse, reading
// response.body with a reader (the parsing loop is raw-consumer.ts, shared with cpu.ts). Shared by
// runners/raw.ts and callgrind.ts, so both measure the same floor.
import { BENCH_TOOLS, endpointFor, type ModeSpec, modelIdFor } from './modes.ts';
import { createRawConsumer } from './raw-consumer.ts';
import type { StreamOutcome } from './runner-harness.ts';

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

/** One stream of `spec` from the server at `origin`, read the raw way. */
export async function rawStreamOnce(spec: ModeSpec, origin: string): Promise<StreamOutcome> {
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
