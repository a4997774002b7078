import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { McpError } from '../../src/core/index.ts';
import { isSessionExpired, toMcpError } from '../../src/mcp/to-mcp-error.ts';

const http = (status: number, text: string) =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
    status,
    statusText: status === 404 ? 'Not Found' : 'Bad Request',
    text,
  });

describe('isSessionExpired', () => {
  it('a 404 (the spec) and a 400 naming the session (server-everything, older SDKs) mean re-initialize', () => {
    expect(isSessionExpired(http(404, ''))).toBe(true);
    const everything =
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}';
    expect(isSessionExpired(http(400, everything))).toBe(true);
    expect(isSessionExpired(toMcpError('s', http(400, 'Session not found'), 'protocol'))).toBe(true);
    expect(isSessionExpired(http(400, 'Bad Request: invalid session'))).toBe(true);
  });

  it('any other 400, another status, or a non-HTTP error is not retried', () => {
    expect(isSessionExpired(http(400, '{"error":{"message":"Parse error: Invalid JSON"}}'))).toBe(false);
    expect(isSessionExpired(http(500, 'No valid session ID provided'))).toBe(false);
    expect(isSessionExpired(new McpError('s: down', { server: 's', reason: 'unavailable' }))).toBe(false);
    expect(isSessionExpired(new Error('No valid session ID'))).toBe(false);
  });
});
