export { type ErrorBodyParser, httpError, parseCommonErrorBody } from './http-error.ts';
export { type HttpRequestOptions, httpStream, type PreparedRequest } from './http-stream.ts';
export { parseRetryAfter } from './parse-retry-after.ts';
