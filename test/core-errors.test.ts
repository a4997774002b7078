import { describe, expect, it } from 'vitest';
import {
  ApiError,
  IncompleteStreamError,
  isRetryableError,
  MaxStepsError,
  NetworkError,
  RateLimitError,
  RxAgentError,
  SessionConflictError,
  StreamParseError,
  TimeoutError,
  ToolCallParseError,
  ToolError,
} from '../src/index.ts';

describe('errors', () => {
  it('carry a code, a name, their data and a cause', () => {
    const cause = new Error('socket hang up');
    const error = new RateLimitError('slow', { provider: 'openai', retryAfterMs: 100, body: '{}', cause });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(RxAgentError);
    expect(error).toMatchObject({
      name: 'RateLimitError',
      code: 'rate_limited',
      status: 429,
      retryAfterMs: 100,
    });
    expect(error.cause).toBe(cause);
    expect(new IncompleteStreamError()).toMatchObject({
      name: 'IncompleteStreamError',
      code: 'stream_incomplete',
    });
    expect(new ToolCallParseError({ raw: '{', toolName: 't', toolCallId: 'c' })).toMatchObject({ raw: '{' });
    expect(new MaxStepsError(3)).toMatchObject({ maxSteps: 3, code: 'max_steps' });
    expect(new SessionConflictError('s', 1, 2)).toMatchObject({ expectedVersion: 1, actualVersion: 2 });
    expect(new ToolError('bad', 'tool')).toMatchObject({ toolName: 'tool', code: 'tool_error' });
    expect(new TimeoutError(50).message).toContain('50 ms');
  });

  it('are recognised across package copies by is(), including subclasses', () => {
    const error = new IncompleteStreamError();
    // a plain object carrying the same brand, as an error from a second copy of the package would
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('rxagent.error.kinds')]: ['RateLimitError', 'ApiError', 'RxAgentError'],
    });
    expect(StreamParseError.is(error)).toBe(true);
    expect(IncompleteStreamError.is(new StreamParseError('m', 'raw'))).toBe(false);
    expect(RateLimitError.is(foreign)).toBe(true);
    expect(ApiError.is(foreign)).toBe(true);
    expect(NetworkError.is(foreign)).toBe(false);
    expect(RxAgentError.is(new Error('plain'))).toBe(false);
    expect(RxAgentError.is(null)).toBe(false);
  });

  it('isRetryableError covers network, timeout, 408, 409, 429 and 5xx only', () => {
    const api = (status: number) => new ApiError('x', { status, provider: 'p' });
    expect(isRetryableError(new NetworkError('x'))).toBe(true);
    expect(isRetryableError(new TimeoutError(1))).toBe(true);
    for (const status of [408, 409, 429, 500, 503, 529]) expect(isRetryableError(api(status))).toBe(true);
    for (const status of [400, 401, 403, 404, 422]) expect(isRetryableError(api(status))).toBe(false);
    expect(isRetryableError(new StreamParseError('x', 'raw'))).toBe(false);
    expect(isRetryableError(new Error('x'))).toBe(false);
  });
});
