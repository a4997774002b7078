import type { StreamOutcome } from './runner-harness.ts';

/**
 * The fields of rxagent's `StreamEvent` the benchmark reads, typed against DESIGN.md rather than
 * imported, so `runners/rxagent.ts` type-checks while a provider module does not exist yet.
 */
export interface BenchEvent {
  type: string;
  text?: string;
  argumentsDelta?: string;
  toolCalls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  response?: { finishReason: string };
}

/** What the rxagent consumer does with each event; `out` holds what arrived. */
export interface RxCollector {
  out: StreamOutcome;
  next: (event: BenchEvent) => void;
}

/**
 * The consumer of one rxagent stream: counts non-empty content deltas, concatenates text, keeps
 * the parsed tool calls and the finish reason. Shared by `runners/rxagent.ts` and `cpu.ts`.
 */
export function createRxCollector(): RxCollector {
  const out: StreamOutcome = {
    deltas: 0,
    text: '',
    toolCalls: [],
    finishReason: '',
    firstDeltaAt: undefined,
  };
  const next = (event: BenchEvent): void => {
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
  };
  return { out, next };
}
