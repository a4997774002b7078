import {
  concatMap,
  defer,
  finalize,
  from,
  lastValueFrom,
  type Observable,
  of,
  take,
  tap,
  throwError,
  throwIfEmpty,
} from 'rxjs';
import {
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  ContextOverflowError,
  estimateTokens,
  type Message,
  messageTokens,
  tokenBound,
  user,
} from '../core/index.ts';
import type { ContextOptions } from './context-options.ts';
import { contextView, summaryMessage, viewMessages } from './context-summary.ts';
import { conversationTurns } from './conversation-turns.ts';
import type { RunState } from './run-state.ts';
import { summarizeTurns } from './summarize-turns.ts';

/** Summaries one fitting may ask for before it gives up: each is a model call the run pays for. */
const MAX_SUMMARIES = 3;

/** A step's request made to fit, the summary to store before the run's messages, and its cost. */
export interface FittedRequest {
  request: ChatRequest;
  prelude: readonly Message[];
  /** The summarizer's responses this fitting took (their usage counts toward the run's). */
  summaries: readonly ChatResponse[];
}

/**
 * The request of a step, compacted to fit `model`'s context window less the room kept for the
 * answer, by the agent's `context` strategy: the request as it is when it fits (no count when its
 * `tokenBound` fits, else one), else
 * the oldest whole turns dropped (`trim`) or replaced by one summary (`summarize`), or what a
 * custom strategy returns. Counts with `model.countTokens`, else `estimateTokens`; candidates are
 * chosen by estimate (scaled to the real count) and each one sent is counted. Errors with
 * `ContextOverflowError` when even the newest turn cannot fit, or when three summaries in a row
 * (a summarizer that overruns `summaryTokens`) did not make the request fit. A model whose window is unknown
 * gets the request unchanged.
 */
export function fitContext(
  context: ContextOptions,
  model: ChatModel,
  state: RunState,
  request: ChatRequest,
): Observable<FittedRequest> {
  const window = context.contextWindow ?? model.contextWindow;
  const unchanged: FittedRequest = { request, prelude: state.prelude, summaries: [] };
  if (window === undefined) return of(unchanged);
  const reserve =
    context.reserveOutputTokens ?? request.maxOutputTokens ?? Math.min(4096, Math.floor(window / 4));
  const limit = window - reserve;
  const withMessages = (messages: readonly Message[]): ChatRequest => ({ ...request, messages });
  const count = (messages: readonly Message[]): Observable<number> => {
    const { countTokens } = model;
    if (!countTokens) return of(estimateTokens(withMessages(messages)));
    // Unsubscribing (a cancelled run) aborts a count still in flight: no request outlives its run.
    return defer(() => {
      const controller = new AbortController();
      let settled = false;
      return from(countTokens.call(model, withMessages(messages), { signal: controller.signal })).pipe(
        tap({ next: () => (settled = true), error: () => (settled = true) }),
        finalize(() => settled || controller.abort()),
      );
    });
  };
  const overflow = (tokens: number) =>
    throwError(() => new ContextOverflowError({ tokens, limit, contextWindow: window }));
  const fitted = (
    messages: readonly Message[],
    prelude = state.prelude,
    summaries: readonly ChatResponse[] = [],
  ): FittedRequest => ({ request: withMessages(messages), prelude, summaries });

  const compact = (total: number): Observable<FittedRequest> => {
    const view = contextView(state.history, state.prelude);
    const { strategy } = context;
    if (typeof strategy === 'function') {
      const budget = { limit, count: (messages: readonly Message[]) => lastValueFrom(count(messages)) };
      // Its first answer only (a second would be a second model turn), and none is an overflow.
      return strategy(viewMessages(view, state.added), budget).pipe(
        take(1),
        throwIfEmpty(() => new ContextOverflowError({ tokens: total, limit, contextWindow: window })),
        concatMap((messages) =>
          count(messages).pipe(concatMap((n) => (n <= limit ? of(fitted(messages)) : overflow(n)))),
        ),
      );
    }
    const turns = conversationTurns(view.older);
    // Estimates scaled to the real count pick the first candidate; the count decides.
    const scale = Math.max(1, total / Math.max(1, estimateTokens(request)));
    const head = view.summary ? [view.summary] : [];
    const fixed = estimateTokens(withMessages([...head, ...state.added]));
    const sizes = turns.map((turn) => turn.reduce((sum, item) => sum + messageTokens(item.message), 0));
    const firstFit = (room: number): number => {
      let rest = sizes.reduce((sum, size) => sum + size, 0);
      let k = 0;
      while (k < turns.length && scale * (fixed + rest) > room) rest -= sizes[k++] as number;
      return k;
    };
    const kept = (k: number) => turns.slice(k).flatMap((turn) => turn.map((item) => item.message));
    if (strategy === 'trim') {
      const attempt = (k: number): Observable<FittedRequest> => {
        const messages = [...head, ...kept(k), ...state.added];
        return count(messages).pipe(
          concatMap((n) =>
            n <= limit ? of(fitted(messages)) : k < turns.length ? attempt(k + 1) : overflow(n),
          ),
        );
      };
      return attempt(firstFit(limit));
    }
    const summaryTokens = context.summaryTokens ?? Math.min(1024, Math.floor(window / 8));
    const summarizer = context.summarizer ?? model;
    const maxChars = Math.max(1000, ((summarizer.contextWindow ?? window) - summaryTokens - 1000) * 3);
    const attempt = (k: number, spent: readonly ChatResponse[] = []): Observable<FittedRequest> => {
      const dropped = turns.slice(0, k).flatMap((turn) => turn.map((item) => item.message));
      const first = turns[k]?.[0];
      const covers = first ? first.index : state.history.length;
      return summarizeTurns(summarizer, view.summary, dropped, {
        maxOutputTokens: summaryTokens,
        maxChars,
      }).pipe(
        concatMap((response) => {
          const used = [...spent, response];
          const summary = summaryMessage(response.text.trim(), covers);
          const messages = [summary, ...kept(k), ...state.added];
          return count(messages).pipe(
            concatMap((n) => {
              if (n <= limit) return of(fitted(messages, [summary], used));
              if (k >= turns.length || used.length >= MAX_SUMMARIES) return overflow(n);
              // Drop as many more turns as the excess needs (by estimate), not one per summary.
              let next = k;
              let freed = 0;
              while (next < turns.length && freed < n - limit) freed += scale * (sizes[next++] as number);
              return attempt(next, used);
            }),
          );
        }),
      );
    };
    if (turns.length === 0) return overflow(total);
    return attempt(Math.max(1, firstFit(limit - summaryTokens)));
  };

  const sent = typeof request.messages === 'string' ? [user(request.messages)] : request.messages;
  // A request whose bound (a token per UTF-8 byte at most, on any tokenizer) fits needs no count:
  // no round trip to a counting endpoint on most steps.
  const bound = tokenBound(request);
  if (bound !== undefined && bound <= limit) return of(unchanged);
  return count(sent).pipe(concatMap((total) => (total <= limit ? of(unchanged) : compact(total))));
}
