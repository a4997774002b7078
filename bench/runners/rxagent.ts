// rxagent: openai(...) / anthropic(...) from the built package (dist/, what an installed rxagent
// runs), consumed with subscribe. BENCH_RXAGENT=source loads src/ instead, through Node's type
// stripping: that leaves ~2× the import garbage, and its collection lands in the cold request.
import { existsSync } from 'node:fs';
import { BENCH_TOOLS, baseURLFor, type ModeSpec, modelIdFor } from '../lib/modes.ts';
import {
  printReport,
  RXAGENT_BUILD,
  runBenchmark,
  runnerArgs,
  type StreamOutcome,
} from '../lib/runner-harness.ts';
import { type BenchEvent, createRxCollector } from '../lib/rx-collector.ts';

// Typed against DESIGN.md rather than imported statically, so this file type-checks and the
// harness can report "skipped" while a provider module does not exist yet.
interface BenchModel {
  stream(request: { messages: string; tools?: unknown[] }): {
    subscribe(observer: {
      next: (e: BenchEvent) => void;
      error: (e: unknown) => void;
      complete: () => void;
    }): unknown;
  };
}
type Factory = (
  modelId: string,
  options: { baseURL: string; apiKey: string; emitToolCallDeltas: boolean },
) => BenchModel;

const PROVIDERS = { openai: 'openai', anthropic: 'anthropic' } as const;
const moduleUrl = (wire: keyof typeof PROVIDERS): URL =>
  new URL(
    RXAGENT_BUILD === 'source'
      ? `../../src/providers/${wire}/index.ts`
      : `../../dist/providers/${wire}/index.js`,
    import.meta.url,
  );

const { spec: requested } = runnerArgs();
const url = moduleUrl(requested.wire);
if (!existsSync(url)) {
  printReport({
    runner: 'rxagent',
    mode: requested.mode,
    skipped: RXAGENT_BUILD === 'source' ? 'not written yet' : 'not built: run `npm run build`',
  });
} else {
  const module = (await import(url.href)) as Record<string, unknown>;
  const factory = module[PROVIDERS[requested.wire]];
  if (typeof factory !== 'function') throw new Error(`${url.pathname} exports no ${requested.wire}()`);
  const models = new Map<string, BenchModel>();
  const modelFor = (spec: ModeSpec, origin: string): BenchModel => {
    let model = models.get(spec.mode);
    if (!model) {
      const baseURL = baseURLFor(origin, spec, spec.wire === 'openai' ? 'v1' : 'root');
      // Tool-call deltas on, so rxagent hands every fragment to the consumer like the other runners do.
      const options = {
        baseURL,
        apiKey: 'bench',
        emitToolCallDeltas: spec.kind === 'tools',
      };
      model = (factory as Factory)(modelIdFor(spec), options);
      models.set(spec.mode, model);
    }
    return model;
  };
  const streamOnce = (spec: ModeSpec, origin: string): Promise<StreamOutcome> =>
    new Promise((resolve, reject) => {
      const { out, next } = createRxCollector();
      const request = { messages: 'hi', ...(spec.kind === 'tools' ? { tools: [...BENCH_TOOLS] } : {}) };
      modelFor(spec, origin)
        .stream(request)
        .subscribe({ next, error: reject, complete: () => resolve(out) });
    });
  await runBenchmark('rxagent', streamOnce);
}
