export { type ErrorBodyParser, httpError, parseCommonErrorBody } from './http-error.ts';
export { type CheckedRequest, checkRequest, type RequiredCredential } from './check-request.ts';
export {
  type HttpClient,
  type HttpClientOptions,
  type HttpStreamRequest,
  httpClient,
  type OutgoingRequest,
} from './http-client.ts';
export { type HttpRequestOptions, httpStream } from './http-stream.ts';
export { mergeHeaders } from './merge-headers.ts';
export { parseRetryAfter } from './parse-retry-after.ts';
export { MAX_ERROR_BODY_BYTES, readErrorBody } from './read-error-body.ts';
export { requestIdOf } from './request-id.ts';
