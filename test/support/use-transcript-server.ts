import { afterEach } from 'vitest';
import { startTranscriptServer, type TranscriptScript, type TranscriptServer } from './transcript-server.ts';

/** The transcript servers a test file starts; each one is closed after the test that started it. */
export interface TranscriptServers {
  /** Starts a transcript server on 127.0.0.1 for the running test. */
  start(script: TranscriptScript): Promise<TranscriptServer>;
  /** The URL of the server the running test started last, or `''`; for model factories outside tests. */
  readonly url: string;
}

/**
 * Registers an `afterEach` that closes every server the test started; call it at the top of a test
 * file or `describe` block.
 * @example
 * const servers = useTranscriptServer();
 * it('streams', async () => {
 *   const server = await servers.start([{ chunks: ['data: {}\n\n'] }]);
 * });
 */
export function useTranscriptServer(): TranscriptServers {
  const started: TranscriptServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  return {
    async start(script) {
      const server = await startTranscriptServer(script);
      started.push(server);
      return server;
    },
    get url() {
      return started.at(-1)?.url ?? '';
    },
  };
}
