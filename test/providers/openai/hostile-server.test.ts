import { describe, expect, it } from 'vitest';
import { azureOpenAI, openai, openaiCompatible } from '../../../src/providers/openai/index.ts';
import { settle } from '../../support/settle.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: unknown = null) =>
  sse({ id: 'c1', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const DONE = 'data: [DONE]\n\n';

const models = {
  openai: (url: string) => openai('gpt-4o-mini', { baseURL: url, apiKey: 'k', retry: false }),
  azure: (url: string) => azureOpenAI('gpt-4o', { baseURL: url, apiKey: 'k', retry: false }),
  compatible: (url: string) =>
    openaiCompatible('llama', { baseURL: url, apiKey: 'k', name: 'c', retry: false }),
};

describe.each(Object.entries(models))('%s: a hostile OpenAI-format server', (_name, model) => {
  const servers = useTranscriptServer();

  // A finish reason arrived, just not a string: the turn is finished (it used to end in
  // IncompleteStreamError, although the text had streamed).
  it('a body ending without [DONE] after a finish reason that is not a string keeps the turn', async () => {
    await servers.start([{ chunks: [chunk({ content: 'Hi' }), chunk({}, { reason: 'stop' })] }]);
    const { events, error } = await settle(model(servers.url).stream({ messages: 'x' }));
    expect(error).toBeUndefined();
    const done = events.at(-1);
    expect(done?.type === 'stream-completed' && done.response.text).toBe('Hi');
  });

  // After [DONE] nothing counts: an error object was already ignored, a malformed event threw away
  // the finished turn with StreamParseError.
  it('a malformed event after [DONE] does not throw away the finished turn', async () => {
    await servers.start([{ chunks: [chunk({ content: 'Hi' }, 'stop'), DONE, 'data: {"oops\n\n'] }]);
    const { events, error } = await settle(model(servers.url).stream({ messages: 'x' }));
    expect(error).toBeUndefined();
    expect(events.at(-1)?.type).toBe('stream-completed');
  });
});
