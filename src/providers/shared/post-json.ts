import { lastValueFrom, type MonoTypeOperatorFunction, reduce, throwError, timeout } from 'rxjs';
import { type CallOptions, StreamLimitError, StreamParseError, TimeoutError } from '../../core/index.ts';
import { cancelOnAbort } from '../../operators/index.ts';
import type { HttpClient } from '../../transport/index.ts';
import { redactError } from '../../transport/redact-error.ts';
import { redactBody } from '../../transport/request-secrets.ts';
import { DEFAULT_IDLE_TIMEOUT_MS } from './provider-options.ts';

/** The most bytes a JSON answer may have: a token count is a few dozen. */
export const MAX_JSON_ANSWER_BYTES = 1_048_576;

/**
 * POSTs `body` as JSON through a model's client (its headers, credential check, error mapping)
 * and resolves with what `read` makes of the parsed JSON answer. For the small non-streaming calls
 * beside a model's stream (token counting); `options.signal` aborts the request. It errors with
 * `TimeoutError` when the whole answer took longer than `timeoutMs` (the call's, else the model's,
 * 10 minutes by default); an answer over {@link MAX_JSON_ANSWER_BYTES} with `StreamLimitError`. An
 * error (of the answer's JSON or of `read`) has the request's secrets cut from what it quotes.
 * @param read makes the result of the answer, or throws a typed error naming what is missing
 * @param modelTimeoutMs the model's `timeoutMs` option
 */
export async function postJson<T>(
  client: HttpClient,
  url: string,
  body: unknown,
  read: (answer: unknown) => T,
  options: CallOptions = {},
  modelTimeoutMs?: number,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? modelTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  let secretsOf: () => readonly string[] = () => [];
  const onResponse = (_response: Response, secrets: () => readonly string[]) => {
    secretsOf = secrets;
  };
  const bytes$ = client
    .stream({ url, body, onResponse, ...(options.headers ? { headers: options.headers } : {}) })
    .pipe(
      cancelOnAbort(options.signal),
      reduce<Uint8Array, { chunks: Uint8Array[]; bytes: number }>(
        (held, chunk) => {
          held.bytes += chunk.length;
          if (held.bytes > MAX_JSON_ANSWER_BYTES) {
            throw new StreamLimitError(
              `${client.provider}: the answer exceeded ${MAX_JSON_ANSWER_BYTES} bytes`,
              MAX_JSON_ANSWER_BYTES,
            );
          }
          held.chunks.push(chunk);
          return held;
        },
        { chunks: [], bytes: 0 },
      ),
      // The whole answer, not the silence between its chunks: a server trickling a byte at a
      // time never lets an idle timeout fire.
      (answer) => (Number.isFinite(timeoutMs) ? answer.pipe(deadline(timeoutMs)) : answer),
    );
  const { chunks } = await lastValueFrom(bytes$);
  const text = new TextDecoder().decode(await new Blob(chunks as BlobPart[]).arrayBuffer());
  try {
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch (cause) {
      throw new StreamParseError(`${client.provider}: the answer is not JSON`, text.slice(0, 200), { cause });
    }
    return read(answer);
  } catch (error) {
    // `raw` is cut to 200 characters: from the redacted answer, so no secret is cut in half first.
    if (StreamParseError.is(error)) Reflect.set(error, 'raw', redactBody(text, secretsOf()).slice(0, 200));
    throw redactError(error, secretsOf());
  }
}

/** The number at `key` of a JSON answer, or a `StreamParseError` naming what was missing. */
export function countIn(provider: string, answer: unknown, key: string): number {
  const value =
    typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>)[key] : undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw new StreamParseError(
    `${provider}: the token count answer has no ${key}`,
    JSON.stringify(answer).slice(0, 200),
  );
}

/** Errors with `TimeoutError` unless the source emits its first value within `ms`. */
const deadline = <T>(ms: number): MonoTypeOperatorFunction<T> =>
  timeout({ first: ms, with: () => throwError(() => new TimeoutError(ms, `No answer within ${ms} ms`)) });
