import { asyncScheduler, Observable, type Observer, type OperatorFunction } from 'rxjs';
import {
  assistant,
  type ChatResponse,
  computeCost,
  type FinishPart,
  IncompleteStreamError,
  type ModelPrice,
  type ProviderEvent,
  type StreamCompleted,
  type StreamEvent,
  type ToolCall,
} from '../core/index.ts';

/** What {@link completeResponse} needs to know about the model that streamed. */
export interface CompleteResponseMeta {
  provider: string;
  /** The requested model id; a `finish` part's `model` overrides it. */
  model: string;
  /** When given, the response carries its `cost`. */
  price?: ModelPrice;
  /** Read at completion: the provider's request id of the answering request, when known. */
  requestId?: () => string | undefined;
}

/**
 * Turns a provider's events into stream events: forwards deltas and `tool-calls-ready`, and when
 * the source completes after its `finish` part, emits one `stream-completed` with the whole
 * response. Completion without `finish` errors with `IncompleteStreamError`; events after
 * `finish` are ignored. Tool calls are taken from `tool-calls-ready` events, so put
 * `accumulateToolCalls()` before it.
 *
 * The message is `assistant(text, toolCalls, metadata)`, where `metadata` is `finish.metadata`
 * plus `{ reasoning }` when reasoning text streamed (no metadata when neither). Timing is
 * measured with `asyncScheduler.now()` from subscription: `firstTokenMs` at the first delta of
 * any kind, `totalMs` at completion.
 * @param meta provider, model and optional price.
 * @example
 * events$.pipe(accumulateToolCalls(), completeResponse({ provider: 'openai', model: 'gpt-4o-mini' }))
 */
export function completeResponse(meta: CompleteResponseMeta): OperatorFunction<ProviderEvent, StreamEvent> {
  return (source) =>
    new Observable<StreamEvent>((subscriber) => source.subscribe(completeStage(meta, subscriber)));
}

/**
 * {@link completeResponse} as a plain observer that feeds `downstream`, for the provider pipeline
 * to chain onto `toolCallStage` with no Observable hop between them. Made per subscription: the
 * clock starts when it is made.
 * @example source.subscribe(toolCallStage({}, completeStage(meta, subscriber)))
 */
export function completeStage(
  meta: CompleteResponseMeta,
  downstream: Observer<StreamEvent>,
): Observer<ProviderEvent> {
  return new CompleteStage(meta, downstream);
}

/**
 * The state of one {@link completeStage}. A class rather than an object of closures: the stage
 * before it calls `next` on every token, and a method of one prototype is the same call target for
 * every stream, where a closure made per stream is a new one each time, and the optimised caller,
 * compiled against the first stream's closure, was thrown away on the second stream (V8 "wrong call
 * target") and compiled again a stream later.
 */
class CompleteStage implements Observer<ProviderEvent> {
  private readonly start = asyncScheduler.now();
  private firstTokenMs: number | undefined;
  // Parts joined once at the end rather than `+=` per token: a rope of 20,000 tokens is 20,000
  // objects that survive to the end of the stream (the garbage collector copies and marks each);
  // an array of parts is one (this sits on every token). Stored by index, not `push`: optimised,
  // this `push` stayed a call into the generic builtin, ~130 instructions per token (callgrind).
  private readonly text: string[] = [];
  private readonly reasoning: string[] = [];
  private readonly toolCalls: ToolCall[] = [];
  private finish: FinishPart | undefined;
  private readonly meta: CompleteResponseMeta;
  private readonly downstream: Observer<StreamEvent>;

  constructor(meta: CompleteResponseMeta, downstream: Observer<StreamEvent>) {
    this.meta = meta;
    this.downstream = downstream;
  }

  next(event: ProviderEvent): void {
    if (this.finish !== undefined) return;
    switch (event.type) {
      case 'text-delta':
        this.text[this.text.length] = event.text;
        break;
      case 'reasoning-delta':
        this.reasoning[this.reasoning.length] = event.text;
        break;
      case 'tool-call-delta':
        break;
      case 'tool-calls-ready':
        for (const call of event.toolCalls) this.toolCalls.push(call);
        this.downstream.next(event);
        return;
      case 'finish':
        this.finish = event;
        return;
      default:
        // Exhaustive; an unknown event from untyped code is ignored.
        event satisfies never;
        return;
    }
    if (this.firstTokenMs === undefined) this.firstTokenMs = asyncScheduler.now() - this.start;
    this.downstream.next(event);
  }

  error(error: unknown): void {
    this.downstream.error(error);
  }

  complete(): void {
    const { finish, firstTokenMs } = this;
    if (finish === undefined) {
      this.downstream.error(new IncompleteStreamError());
      return;
    }
    const totalMs = asyncScheduler.now() - this.start;
    const timing = firstTokenMs === undefined ? { totalMs } : { firstTokenMs, totalMs };
    const text = this.text.join('');
    const reasoning = this.reasoning.join('');
    const completed: StreamCompleted = {
      type: 'stream-completed',
      response: buildResponse(this.meta, finish, text, reasoning, this.toolCalls, timing),
    };
    this.downstream.next(completed);
    this.downstream.complete();
  }
}

function buildResponse(
  meta: CompleteResponseMeta,
  finish: FinishPart,
  text: string,
  reasoning: string,
  toolCalls: ToolCall[],
  timing: ChatResponse['timing'],
): ChatResponse {
  const metadata = reasoning === '' ? finish.metadata : { ...finish.metadata, reasoning };
  return {
    message: assistant(text, toolCalls, metadata),
    text,
    ...(reasoning === '' ? {} : { reasoning }),
    toolCalls,
    finishReason: finish.finishReason,
    ...(finish.rawFinishReason === undefined ? {} : { rawFinishReason: finish.rawFinishReason }),
    ...(finish.usage === undefined ? {} : { usage: finish.usage }),
    ...(finish.usage === undefined || meta.price === undefined
      ? {}
      : { cost: computeCost(finish.usage, meta.price) }),
    provider: meta.provider,
    model: finish.model ?? meta.model,
    ...(finish.responseId === undefined ? {} : { responseId: finish.responseId }),
    ...requestIdOf(meta),
    timing,
  };
}

function requestIdOf(meta: CompleteResponseMeta): { requestId?: string } {
  const requestId = meta.requestId?.();
  return requestId === undefined ? {} : { requestId };
}
