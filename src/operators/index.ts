export { type AccumulateToolCallsOptions, accumulateToolCalls } from './accumulate-tool-calls.ts';
export { collectResponse } from './collect-response.ts';
export { type CompleteResponseMeta, completeResponse } from './complete-response.ts';
export { decodeNDJSON } from './decode-ndjson.ts';
export { type DecodeSSEOptions, decodeSSE, type SSEMessage } from './decode-sse.ts';
export { type IdleTimeoutOptions, idleTimeout } from './idle-timeout.ts';
export { type RetryWithBackoffOptions, retryWithBackoff } from './retry-with-backoff.ts';
