import type {
  FinishPart,
  FinishReason,
  ProviderEvent,
  StreamEvent,
  ToolCallDelta,
  Usage,
} from '../core/index.ts';

/** A tool call of a scripted turn; `id` defaults to `call_<n>` (1-based). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments?: Record<string, unknown>;
}

/** A turn described by what it says, from which the events are built. */
export interface ScriptedTurnSpec {
  /** The reply; each string of an array is one `text-delta`. */
  text?: string | readonly string[];
  /** Reasoning streamed before the text; each string of an array is one `reasoning-delta`. */
  reasoning?: string | readonly string[];
  toolCalls?: readonly ScriptedToolCall[];
  /** @default 'tool-calls' when the turn has tool calls, else 'stop' */
  finishReason?: FinishReason;
  rawFinishReason?: string;
  /**
   * The turn's usage; without it the turn reports none (as a provider that sends no usage: zeros
   * never stand in for "unknown"). Missing counts are 0; `totalTokens` defaults to input + output.
   */
  usage?: Partial<Usage>;
  responseId?: string;
  /** Error with this after the deltas, instead of finishing the turn. */
  error?: unknown;
}

/**
 * One scripted turn: a spec, or the events themselves. Events without a `stream-completed` are
 * completed like a provider's (a `finish` part is added when missing); events with one are
 * replayed exactly.
 */
export type ScriptedTurn = ScriptedTurnSpec | readonly (StreamEvent | FinishPart)[];

/** A turn's events, resolved for playing. */
export type ResolvedTurn =
  { kind: 'provider'; events: ProviderEvent[]; error?: unknown } | { kind: 'exact'; events: StreamEvent[] };

const pieces = (value: string | readonly string[] | undefined): readonly string[] =>
  value === undefined ? [] : typeof value === 'string' ? (value === '' ? [] : [value]) : value;

function usageOf(partial: Partial<Usage>): Usage {
  const inputTokens = partial.inputTokens ?? 0;
  const outputTokens = partial.outputTokens ?? 0;
  return {
    ...partial,
    inputTokens,
    outputTokens,
    totalTokens: partial.totalTokens ?? inputTokens + outputTokens,
  };
}

function fromSpec(spec: ScriptedTurnSpec): ResolvedTurn {
  const events: ProviderEvent[] = [];
  for (const text of pieces(spec.reasoning)) events.push({ type: 'reasoning-delta', text });
  for (const text of pieces(spec.text)) events.push({ type: 'text-delta', text });
  const calls = spec.toolCalls ?? [];
  calls.forEach((call, index) => {
    const delta: ToolCallDelta = {
      type: 'tool-call-delta',
      index,
      id: call.id ?? `call_${index + 1}`,
      name: call.name,
      argumentsDelta: JSON.stringify(call.arguments ?? {}),
    };
    events.push(delta);
  });
  if ('error' in spec) return { kind: 'provider', events, error: spec.error };
  events.push({
    type: 'finish',
    finishReason: spec.finishReason ?? (calls.length > 0 ? 'tool-calls' : 'stop'),
    ...(spec.rawFinishReason === undefined ? {} : { rawFinishReason: spec.rawFinishReason }),
    ...(spec.usage === undefined ? {} : { usage: usageOf(spec.usage) }),
    ...(spec.responseId === undefined ? {} : { responseId: spec.responseId }),
  });
  return { kind: 'provider', events };
}

function fromEvents(list: readonly (StreamEvent | FinishPart)[]): ResolvedTurn {
  if (list.some((event) => event.type === 'stream-completed')) {
    return { kind: 'exact', events: list.filter((event): event is StreamEvent => event.type !== 'finish') };
  }
  // Without a stream-completed, every event is a provider event.
  const events = [...list] as ProviderEvent[];
  if (!events.some((event) => event.type === 'finish')) {
    const hasCalls = events.some(
      (event) => event.type === 'tool-call-delta' || event.type === 'tool-calls-ready',
    );
    events.push({ type: 'finish', finishReason: hasCalls ? 'tool-calls' : 'stop' });
  }
  return { kind: 'provider', events };
}

/** The events a scripted turn plays. */
export function resolveTurn(turn: ScriptedTurn): ResolvedTurn {
  return Array.isArray(turn)
    ? fromEvents(turn as readonly (StreamEvent | FinishPart)[])
    : fromSpec(turn as ScriptedTurnSpec);
}
