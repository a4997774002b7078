import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bedrock } from '../../src/providers/bedrock/index.ts';
import { ollama } from '../../src/providers/ollama/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { settle } from '../support/settle.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';
import { encodeTranscript, meta, start, stop, text } from './bedrock/event-stream.ts';

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const delta = (content: string, finish: string | null = null) =>
  sse({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });

/**
 * A body that ends cleanly (no reset) a few bytes into what follows the provider's terminal event:
 * the finished turn is kept, as it is when the connection is reset at the same byte.
 */
describe('a body that ends inside a unit after the terminal event keeps the finished turn', () => {
  const servers = useTranscriptServer();
  const saved = process.env.AWS_EC2_METADATA_DISABLED;
  beforeEach(() => {
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.AWS_EC2_METADATA_DISABLED;
    else process.env.AWS_EC2_METADATA_DISABLED = saved;
  });

  it('openai: after [DONE], a cut event', async () => {
    await servers.start([{ chunks: [delta('Hi'), delta('', 'stop'), 'data: [DONE]\n\n', 'data: {"x'] }]);
    const result = await settle(
      openai('gpt-4o-mini', { baseURL: servers.url, apiKey: 'k', retry: false }).stream({ messages: 'x' }),
    );
    expect(result.error).toBeUndefined();
  });

  it('bedrock: after messageStop and metadata, a cut frame', async () => {
    const whole = encodeTranscript(start + text('Hi') + stop('end_turn') + meta(3, 1));
    const tail = encodeTranscript(meta(3, 1)).subarray(0, 10);
    await servers.start([
      { headers: { 'content-type': 'application/vnd.amazon.eventstream' }, chunks: [whole, tail] },
    ]);
    const model = bedrock('us.anthropic.claude-sonnet-4-20250514-v1:0', {
      baseURL: servers.url,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      retry: false,
    });
    const result = await settle(model.stream({ messages: 'x' }));
    expect(result.error).toBeUndefined();
  });

  it('ollama: after the done line, a cut line', async () => {
    const line = (data: unknown) => `${JSON.stringify(data)}\n`;
    await servers.start([
      {
        headers: { 'content-type': 'application/x-ndjson' },
        chunks: [
          line({ model: 'm', message: { role: 'assistant', content: 'Hi' }, done: false }),
          line({ model: 'm', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' }),
          '{"model":"m","mess',
        ],
      },
    ]);
    const result = await settle(
      ollama('m', { baseURL: servers.url, retry: false }).stream({ messages: 'x' }),
    );
    expect(result.error).toBeUndefined();
  });
});
