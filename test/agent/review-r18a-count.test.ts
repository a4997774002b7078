import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';

describe('R18a-8: cancelling a run while its request is counted aborts the count', () => {
  it('the count_tokens request is closed when the run is unsubscribed', async () => {
    let arrived!: () => void;
    const counting = new Promise<void>((resolve) => (arrived = resolve));
    let closed!: () => void;
    const aborted = new Promise<void>((resolve) => (closed = resolve));
    // A counting endpoint that never answers: only the client can end the request.
    const server = createServer((req: IncomingMessage) => {
      req.resume();
      arrived();
      req.socket.on('close', () => closed());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const model = anthropic('claude-sonnet-4-5', {
        baseURL: `http://127.0.0.1:${port}`,
        apiKey: 'sk-test',
        contextWindow: 8_000,
      });
      const agent = new Agent({ model, context: { strategy: 'trim' } });
      const subscription = agent.run('a long question '.repeat(600)).subscribe({ error: () => undefined });
      await counting;
      subscription.unsubscribe();
      const outcome = await Promise.race([
        aborted.then(() => 'closed'),
        new Promise((resolve) => setTimeout(resolve, 3_000, 'still open')),
      ]);
      expect(outcome).toBe('closed');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
