import type { Observable } from 'rxjs';
import { type HttpClientOptions, type HttpStreamRequest, httpClient } from './http-client.ts';

/** One streaming POST request, client options included. */
export interface HttpRequestOptions extends HttpClientOptions, Omit<HttpStreamRequest, 'headers'> {}

/**
 * One request without a long-lived client: `httpClient(options).stream(options)`. Models keep an
 * {@link httpClient} instead, so the merged headers are built once.
 * @example httpStream({ provider: 'openai', url, body }).pipe(decodeSSE())
 */
export function httpStream(options: HttpRequestOptions): Observable<Uint8Array> {
  return httpClient(options).stream(options);
}
