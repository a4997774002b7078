import {
  asyncScheduler,
  concat,
  concatMap,
  defer,
  from,
  map,
  type Observable,
  type SchedulerLike,
  throwError,
  timer,
} from 'rxjs';
import {
  type CallOptions,
  type ChatModel,
  type ChatRequest,
  type ModelCapabilities,
  type ModelPrice,
  RxAgentError,
  type StreamEvent,
} from '../core/index.ts';
import { accumulateToolCalls, completeResponse } from '../operators/index.ts';
import { createChatModel } from '../providers/shared/index.ts';
import { resolveTurn, type ScriptedTurn } from './scripted-turn.ts';

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /** @default 'scripted' */
  provider?: string;
  /** @default 'scripted-model' */
  modelId?: string;
  /** @default every capability */
  capabilities?: Partial<Omit<ModelCapabilities, 'streaming'>>;
  /** When given, responses carry their `cost`. */
  price?: ModelPrice;
  /** Wait this long before each event (through `scheduler`, so virtual time works). @default 0 */
  delayMs?: number;
  /** @default asyncScheduler */
  scheduler?: SchedulerLike;
  /** Start again at the first turn once every turn was played, instead of erroring. @default false */
  loop?: boolean;
  /** The model's `contextWindow`. @default none */
  contextWindow?: number;
  /** The model's `countTokens`. @default none */
  countTokens?: (request: ChatRequest) => number | Promise<number>;
}

/** A scripted model: a `ChatModel` that also shows the requests it received. */
export interface ScriptedModel extends ChatModel {
  /** Every request, in subscription order (one per `stream()` subscription or `complete()` call). */
  readonly requests: readonly ChatRequest[];
}

/**
 * A `ChatModel` that replays scripted turns: the n-th `stream()` subscription plays the n-th turn,
 * ending with a real `stream-completed` (text, tool calls, usage, timing, cost), as a provider's
 * stream would; `CallOptions.emitToolCallDeltas` is honoured. A turn is a spec
 * (`{ text, toolCalls, finishReason, usage, error }`), a list of events, or a function of the
 * request. Cold; running out of turns errors with an `RxAgentError` (code `script_exhausted`).
 * @param turns the turns, in order
 * @example
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
 *   { text: ['It is ', '18 °C.'] },
 * ]);
 */
export function scriptedModel(
  turns: readonly (ScriptedTurn | ((request: ChatRequest, index: number) => ScriptedTurn))[],
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const provider = options.provider ?? 'scripted';
  const modelId = options.modelId ?? 'scripted-model';
  const delayMs = options.delayMs ?? 0;
  const scheduler = options.scheduler ?? asyncScheduler;
  const requests: ChatRequest[] = [];

  const play = <T>(events: readonly T[]): Observable<T> =>
    delayMs > 0
      ? from(events).pipe(concatMap((event) => timer(delayMs, scheduler).pipe(map(() => event))))
      : from(events);

  const stream = (request: ChatRequest, call?: CallOptions): Observable<StreamEvent> =>
    defer(() => {
      const index = requests.length;
      requests.push(request);
      const position = options.loop && turns.length > 0 ? index % turns.length : index;
      const entry = turns[position];
      if (entry === undefined) {
        return throwError(
          () =>
            new RxAgentError(
              `scriptedModel has no turn ${index} (${turns.length} scripted)`,
              'script_exhausted',
            ),
        );
      }
      const turn = resolveTurn(typeof entry === 'function' ? entry(request, index) : entry);
      if (turn.kind === 'exact') return play(turn.events);
      const events =
        'error' in turn
          ? concat(
              play(turn.events),
              throwError(() => turn.error),
            )
          : play(turn.events);
      return events.pipe(
        accumulateToolCalls({ emitDeltas: call?.emitToolCallDeltas === true }),
        completeResponse({ provider, model: modelId, ...(options.price ? { price: options.price } : {}) }),
      );
    });

  const count = options.countTokens;
  const model = createChatModel({
    provider,
    modelId,
    capabilities: {
      streaming: true,
      tools: true,
      vision: true,
      json: true,
      reasoning: true,
      ...options.capabilities,
    },
    stream,
    contextWindow: options.contextWindow,
    countTokens: count === undefined ? undefined : async (request) => count(request),
  });
  return Object.freeze({ ...model, requests });
}
