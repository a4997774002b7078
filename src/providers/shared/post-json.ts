import { lastValueFrom, reduce } from 'rxjs';
import { type CallOptions, StreamParseError } from '../../core/index.ts';
import { cancelOnAbort } from '../../operators/index.ts';
import { idleTimeout } from '../../operators/idle-timeout.ts';
import type { HttpClient } from '../../transport/index.ts';
import { DEFAULT_IDLE_TIMEOUT_MS } from './provider-options.ts';

/**
 * POSTs `body` as JSON through a model's client (its headers, credential check, error mapping)
 * and resolves with the parsed JSON answer. For the small non-streaming calls beside a model's
 * stream (token counting); `options.signal` aborts the request. Like a stream, it errors with
 * `TimeoutError` after `timeoutMs` of silence (the call's, else the model's, 10 minutes by default).
 * @param modelTimeoutMs the model's `timeoutMs` option
 */
export async function postJson(
  client: HttpClient,
  url: string,
  body: unknown,
  options: CallOptions = {},
  modelTimeoutMs?: number,
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? modelTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const bytes$ = client.stream({ url, body, ...(options.headers ? { headers: options.headers } : {}) }).pipe(
    (source) => (Number.isFinite(timeoutMs) ? source.pipe(idleTimeout<Uint8Array>(timeoutMs)) : source),
    cancelOnAbort(options.signal),
    reduce<Uint8Array, Uint8Array[]>((chunks, chunk) => {
      chunks.push(chunk);
      return chunks;
    }, []),
  );
  const chunks = await lastValueFrom(bytes$);
  const text = new TextDecoder().decode(await new Blob(chunks as BlobPart[]).arrayBuffer());
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new StreamParseError(`${client.provider}: the answer is not JSON`, text.slice(0, 200), { cause });
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
