/**
 * Some of the suite's 2026-07-28 mock servers implement neither `server/discover` nor `initialize`;
 * this fetch answers the discover probe locally (everything else reaches the mock), so the
 * negotiated era can be established against them.
 */
import type { FetchLike } from '@modelcontextprotocol/client';

export function withLocalDiscover(
  serverInfo: { name: string; version: string },
  next: FetchLike = fetch,
): FetchLike {
  return async (input, init) => {
    if (typeof init?.body === 'string') {
      let message: { method?: unknown; id?: unknown } | undefined;
      try {
        message = JSON.parse(init.body) as { method?: unknown; id?: unknown };
      } catch {
        message = undefined;
      }
      if (message?.method === 'server/discover') {
        return Response.json({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
            _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
          },
        });
      }
    }
    return next(input, init);
  };
}
