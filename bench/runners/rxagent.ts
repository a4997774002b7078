// rxagent: openai(...) / anthropic(...) from src/providers, consumed with subscribe.
import { existsSync } from 'node:fs';
import { BENCH_TOOLS, baseURLFor, type ModeSpec, modelIdFor } from '../lib/modes.ts';
import { printReport, runBenchmark, runnerArgs, type StreamOutcome } from '../lib/runner-harness.ts';

// Typed against DESIGN.md rather than imported statically, so this file type-checks and the
// harness can report "skipped" while a provider module does not exist yet.
interface BenchEvent {
  type: string;
  text?: string;
  argumentsDelta?: string;
  toolCalls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  response?: { finishReason: string };
}
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
  options: { baseURL: string; apiKey: string; retry: false; emitToolCallDeltas: boolean },
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
        retry: false as const,
        emitToolCallDeltas: spec.kind === 'tools',
      };
      model = (factory as Factory)(modelIdFor(spec), options);
      models.set(spec.mode, model);
    }
    return model;
  };
  const streamOnce = (spec: ModeSpec, origin: string): Promise<StreamOutcome> =>
    new Promise((resolve, reject) => {
      const out: StreamOutcome = {
        deltas: 0,
        text: '',
        toolCalls: [],
        finishReason: '',
        firstDeltaAt: undefined,
      };
      const request = { messages: 'hi', ...(spec.kind === 'tools' ? { tools: [...BENCH_TOOLS] } : {}) };
      modelFor(spec, origin)
        .stream(request)
        .subscribe({
          next: (event) => {
            switch (event.type) {
              case 'text-delta':
                if (event.text) {
                  out.firstDeltaAt ??= performance.now();
                  out.deltas++;
                  out.text += event.text;
                }
                break;
              case 'tool-call-delta':
                if (event.argumentsDelta) {
                  out.firstDeltaAt ??= performance.now();
                  out.deltas++;
                }
                break;
              case 'tool-calls-ready':
                for (const c of event.toolCalls ?? [])
                  out.toolCalls.push({ id: c.id, name: c.name, args: c.arguments });
                break;
              case 'stream-completed':
                out.finishReason = event.response?.finishReason ?? '';
                break;
              default:
                break;
            }
          },
          error: reject,
          complete: () => resolve(out),
        });
    });
  await runBenchmark('rxagent', streamOnce);
}
