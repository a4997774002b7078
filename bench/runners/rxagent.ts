// rxagent: openai(...) / anthropic(...) from src/providers, consumed with subscribe.
import { existsSync } from 'node:fs';
import { BENCH_TOOLS, baseURLFor, type ModeSpec, modelIdFor } from '../lib/modes.ts';
import { printReport, runBenchmark, runnerArgs, type StreamOutcome } from '../lib/runner-harness.ts';
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
  new URL(`../../src/providers/${wire}/index.ts`, import.meta.url);

const { spec: requested } = runnerArgs();
const url = moduleUrl(requested.wire);
if (!existsSync(url)) {
  printReport({ runner: 'rxagent', mode: requested.mode, skipped: 'not built yet' });
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
