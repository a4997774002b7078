import { Observable, type Observer, type OperatorFunction } from 'rxjs';
import {
  generateToolCallId,
  type ProviderEvent,
  type StreamEvent,
  type ToolCall,
  type ToolCallDelta,
  ToolCallParseError,
  type ToolCallsReady,
} from '../core/index.ts';
import { argumentsText } from '../core/arguments-text.ts';
import { deepFreeze } from '../core/deep-freeze.ts';

/** Options of {@link accumulateToolCalls}. */
export interface AccumulateToolCallsOptions {
  /**
   * Forward every `tool-call-delta` as well (for UIs that show arguments as they stream).
   * @default false
   */
  emitDeltas?: boolean;
}

/** One tool call being assembled; `parts` are joined once, at the end. */
interface Accumulator {
  index: number;
  /** Arrival order, for calls that share an index. */
  order: number;
  id: string;
  name: string;
  parts: string[];
}

/**
 * Assembles `tool-call-delta` fragments (keyed by `index`) into one `tool-calls-ready` event,
 * emitted right before the turn's `finish` / `stream-completed` event, or at completion. A fragment
 * whose `id` differs from the one its index already has starts another call (in arrival order).
 *
 * `id` and `name` may come in any fragment of their index (the first non-empty one wins); a call
 * without an id gets a fresh unique one (`generateToolCallId()`). Empty arguments parse as `{}`.
 * Arguments that are not a JSON object (broken JSON, an array, a number) are not a stream error:
 * the call carries `invalidArguments: { raw, message }` and `arguments: {}`, so an agent can send
 * the reason back to the model. A call without a name cannot be answered at all: it errors the
 * stream with `ToolCallParseError` (carrying the raw text). A `tool-calls-ready` already in the
 * source passes through unchanged. State is per
 * subscription and starts over after each `finish` / `stream-completed`, so one turn → one event.
 * @param options `emitDeltas` to forward the fragments too.
 * @example
 * providerEvents$.pipe(accumulateToolCalls(), completeResponse({ provider: 'openai', model: 'gpt-4o' }))
 */
export function accumulateToolCalls<E extends ProviderEvent | StreamEvent>(
  options: AccumulateToolCallsOptions = {},
): OperatorFunction<E, E> {
  return (source) => new Observable<E>((subscriber) => source.subscribe(toolCallStage(options, subscriber)));
}

/**
 * {@link accumulateToolCalls} as a plain observer that feeds `downstream`: the provider pipeline
 * chains it straight onto the next stage, with no Observable hop between them (this sits on every
 * token). One stage per subscription: it holds that subscription's calls.
 * @example source.subscribe(toolCallStage({}, subscriber))
 */
export function toolCallStage<E extends ProviderEvent | StreamEvent>(
  options: AccumulateToolCallsOptions,
  downstream: Observer<E>,
): Observer<E> {
  return new ToolCallStage(options.emitDeltas === true, downstream);
}

/**
 * The state of one {@link toolCallStage}. A class rather than an object of closures, for the same
 * reason as `completeStage`: its methods are one call target for every stream. With closures made
 * per stream, the optimised code that inlined the first stream's `flush` was thrown away at the
 * second stream's end (V8 "wrong call target") and compiled again during the third.
 */
class ToolCallStage<E extends ProviderEvent | StreamEvent> implements Observer<E> {
  private readonly emitDeltas: boolean;
  private readonly downstream: Observer<E>;
  // The call each index is assembling now; `done` holds calls a new id replaced at their index.
  private calls = new Map<number, Accumulator>();
  private done: Accumulator[] = [];
  // The previous fragment's call: providers stream one call's fragments in a row.
  private last: Accumulator | undefined;

  constructor(emitDeltas: boolean, downstream: Observer<E>) {
    this.emitDeltas = emitDeltas;
    this.downstream = downstream;
  }

  next(value: E): void {
    const event: ProviderEvent | StreamEvent = value;
    switch (event.type) {
      case 'tool-call-delta':
        this.add(event);
        if (this.emitDeltas) this.downstream.next(value);
        return;
      case 'finish':
      case 'stream-completed':
        if (this.flush()) this.downstream.next(value);
        return;
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-calls-ready':
        this.downstream.next(value);
        return;
      default:
        // Exhaustive; an unknown event from untyped code passes through.
        event satisfies never;
        this.downstream.next(value);
    }
  }

  error(error: unknown): void {
    this.downstream.error(error);
  }

  complete(): void {
    if (this.flush()) this.downstream.complete();
  }

  private add(delta: ToolCallDelta): void {
    const { last, calls, done } = this;
    let acc = last !== undefined && last.index === delta.index ? last : calls.get(delta.index);
    // Another id at the same index is another call: servers that leave the index out (Gemini's
    // OpenAI endpoint) send each parallel call in its own chunk, told apart only by its id.
    if (acc !== undefined && delta.id && acc.id !== '' && acc.id !== delta.id) {
      done.push(acc);
      acc = undefined;
    }
    if (acc === undefined) {
      acc = { index: delta.index, order: calls.size + done.length, id: '', name: '', parts: [] };
      calls.set(delta.index, acc);
    }
    this.last = acc;
    if (acc.id === '' && delta.id) acc.id = delta.id;
    if (acc.name === '' && delta.name) acc.name = delta.name;
    // Typed as text; from untyped code (a custom provider) any other value is taken as JSON text.
    const fragment = argumentsText(delta.argumentsDelta);
    if (fragment !== '') acc.parts.push(fragment);
  }

  /** Emits the assembled calls, if any; false when that failed (the stream has errored). */
  private flush(): boolean {
    if (this.calls.size === 0) return true;
    const pending = [...this.done, ...this.calls.values()];
    this.calls = new Map();
    this.done = [];
    this.last = undefined;
    let toolCalls: ToolCall[];
    try {
      // Frozen, arguments and all: the event's calls are the ones the history and the audit keep, so
      // a subscriber to the stream cannot change what runs or what the model is told it sent.
      toolCalls = pending
        .sort((a, b) => a.index - b.index || a.order - b.order)
        .map((acc) => deepFreeze(toToolCall(acc)));
    } catch (error) {
      this.downstream.error(error);
      return false;
    }
    const ready: ToolCallsReady = { type: 'tool-calls-ready', toolCalls };
    this.downstream.next(ready as E);
    return true;
  }
}

function toToolCall(acc: Accumulator): ToolCall {
  const id = acc.id === '' ? generateToolCallId() : acc.id;
  const raw = acc.parts.length === 1 ? (acc.parts[0] as string) : acc.parts.join('');
  if (acc.name === '') {
    throw new ToolCallParseError({
      raw,
      toolName: '',
      toolCallId: id,
      message: `Tool call ${id} has no name, so it cannot be answered`,
      cause: new Error('The tool call has no name'),
    });
  }
  if (raw.trim() === '') return { id, name: acc.name, arguments: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return invalid(id, acc.name, raw, `The arguments are not valid JSON: ${reason}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    return invalid(id, acc.name, raw, `The arguments must be a JSON object, not ${kind}`);
  }
  return { id, name: acc.name, arguments: parsed as Record<string, unknown> };
}

function invalid(id: string, name: string, raw: string, message: string): ToolCall {
  return { id, name, arguments: {}, invalidArguments: { raw, message } };
}
