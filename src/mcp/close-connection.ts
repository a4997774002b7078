import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpConnection } from './open-connection.ts';

/** The longest `close()` waits for the server to acknowledge the end of its session. */
const TERMINATE_MS = 2_000;

/**
 * Closes a connection for good: an HTTP session is ended with `DELETE` first (a server that does
 * not allow it answers 405, which is fine; one that does not answer is not waited for past 2 s),
 * so the server can free it at once instead of keeping it until it expires; then the client and
 * its transport (a stdio server's whole process group) are closed.
 */
export async function closeConnection({ client, transport }: McpConnection): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      transport.terminateSession().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, TERMINATE_MS))),
    ]);
    clearTimeout(timer);
  }
  await client.close();
}
