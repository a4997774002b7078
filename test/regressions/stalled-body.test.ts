// Review of issue 7: the idle timeout fires on a real connection whose body stalls after the first
// bytes (headers sent, one event, then silence), not only before the response, and the stream keeps
// the events it had; the server sees the request aborted.
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { settle } from '../support/settle.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

describe('a body that stalls mid-stream', () => {
  const servers = useTranscriptServer();

  it('errors with TimeoutError after timeoutMs of silence and aborts the request', async () => {
    const server = await servers.start([
      { chunks: ['data: {"choices":[{"delta":{"content":"a"}}]}\n\n'], hold: true },
    ]);
    const aborted = server.nextClientAbort();
    const model = openai('gpt-4o', { baseURL: server.url, apiKey: 'k' });
    const { events, error } = await settle(model.stream({ messages: 'hi' }, { timeoutMs: 1_000 }));
    expect(events).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(TimeoutError.is(error)).toBe(true);
    expect(error).toMatchObject({ timeoutMs: 1_000 });
    await aborted;
    // Not retried: an event had been emitted.
    expect(server.requests).toHaveLength(1);
  });
});
