import { Observable, type OperatorFunction } from 'rxjs';
import { type ChatResponse, IncompleteStreamError, type StreamEvent } from '../core/index.ts';

/**
 * Reduces a model stream to its response: emits the `stream-completed` event's response when the
 * source completes (the last one, should a stream hold several), then completes. Completion
 * without any `stream-completed` errors with `IncompleteStreamError`.
 * @example
 * const response = await lastValueFrom(model.stream(request).pipe(collectResponse()));
 */
export function collectResponse(): OperatorFunction<StreamEvent, ChatResponse> {
  return (source) =>
    new Observable<ChatResponse>((subscriber) => {
      let response: ChatResponse | undefined;
      return source.subscribe({
        next(event) {
          if (event.type === 'stream-completed') response = event.response;
        },
        error: (error) => subscriber.error(error),
        complete() {
          if (response === undefined) {
            subscriber.error(new IncompleteStreamError());
            return;
          }
          subscriber.next(response);
          subscriber.complete();
        },
      });
    });
}
