import type { SSEMessage } from '../../src/operators/index.ts';

/**
 * An SSE message as a mapper receives it: `data` JSON-encoded unless it is already a string.
 * @example sseMessage({ type: 'ping' }) // { data: '{"type":"ping"}' }
 */
export const sseMessage = (data: unknown, event?: string): SSEMessage => ({
  data: typeof data === 'string' ? data : JSON.stringify(data),
  ...(event === undefined ? {} : { event }),
});
