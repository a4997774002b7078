import { Observable, type OperatorFunction } from 'rxjs';
import { StreamParseError } from '../../core/index.ts';
import { decodeSSE, type SSEMessage } from '../../operators/index.ts';
import { OPENAI_DONE, type OpenAIChunk, type OpenAIStreamItem } from './openai-wire.ts';

/**
 * Parses the `data:` of each server-sent event as JSON; `[DONE]` becomes `OPENAI_DONE` and empty
 * data (keep-alive) is skipped. Malformed JSON errors with `StreamParseError` carrying the raw data.
 */
export function parseOpenAIMessages(): OperatorFunction<SSEMessage, OpenAIStreamItem> {
  return (source) =>
    new Observable<OpenAIStreamItem>((subscriber) =>
      source.subscribe({
        next({ data }) {
          if (data === '[DONE]') {
            subscriber.next(OPENAI_DONE);
            return;
          }
          if (data === '') return;
          let chunk: OpenAIChunk;
          try {
            chunk = JSON.parse(data) as OpenAIChunk;
          } catch (cause) {
            subscriber.error(new StreamParseError('A server-sent event holds invalid JSON', data, { cause }));
            return;
          }
          // A bare JSON value (number, string, null) is no chunk: treat it like bad JSON.
          if (typeof chunk !== 'object' || chunk === null) {
            subscriber.error(new StreamParseError('A server-sent event holds no JSON object', data));
            return;
          }
          subscriber.next(chunk);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
}

/**
 * Bytes of an OpenAI-format event stream to parsed chunks: `decodeSSE()` then JSON per message.
 * @example httpStream(req).pipe(decodeOpenAIStream())
 */
export function decodeOpenAIStream(): OperatorFunction<Uint8Array, OpenAIStreamItem> {
  return (source) => source.pipe(decodeSSE(), parseOpenAIMessages());
}
