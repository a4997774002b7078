export { type AccumulateToolCallsOptions, accumulateToolCalls } from './accumulate-tool-calls.ts';
export { cancelOnAbort } from './cancel-on-abort.ts';
export { collectResponse } from './collect-response.ts';
export { type CompleteResponseMeta, completeResponse } from './complete-response.ts';
export {
  DEFAULT_MAX_LINE_BYTES,
  type DecodeNDJSONOptions,
  decodeNDJSON,
  ndjsonDecoder,
} from './decode-ndjson.ts';
export {
  DEFAULT_MAX_EVENT_BYTES,
  type DecodeSSEOptions,
  decodeSSE,
  type SSEMessage,
  sseDecoder,
} from './decode-sse.ts';
export { type IdleTimeoutOptions, idleTimeout } from './idle-timeout.ts';
export { parseStructuredOutput } from './parse-structured-output.ts';
export { type RetryWithBackoffOptions, retryWithBackoff } from './retry-with-backoff.ts';
export { decodeWith, type StreamDecoder, type StreamDecoderFactory } from './stream-decoder.ts';
