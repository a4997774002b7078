// Review 2 (issue 15, hostile input): a regex in responseFormat.schema checks what the model wrote,
// and it ran on the backtracking RegExp: a 26-byte reply held the event loop ~1.8 s (doubling per
// byte). It runs on the linear-time engine now, as a tool input's does; a pattern RE2 cannot run is
// an InvalidRequestError before anything is sent. Real servers on 127.0.0.1.
import * as v from 'valibot';
import * as z from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidRequestError, StructuredOutputError } from '../../src/core/index.ts';
import { openaiCompatible } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';
import { watchBacktracking } from '../support/watch-backtracking.ts';

const hostile = `${'a'.repeat(24)}b`;
const replyWith = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a regex in responseFormat.schema', () => {
  const servers = useTranscriptServer();

  it.each([
    ['zod', () => z.object({ id: z.string().regex(/^(a|a)*$/) })],
    ['valibot', () => v.object({ id: v.pipe(v.string(), v.regex(/^(a|a)*$/)) })],
  ])("%s: a model's reply never reaches the backtracking RegExp", async (_vendor, schemaOf) => {
    const backtracked = watchBacktracking([hostile]);
    const server = await servers.start([{ chunks: [replyWith(JSON.stringify({ id: hostile }))] }]);
    const model = openaiCompatible('m', { baseURL: server.url, apiKey: 'k', retry: false });
    const schema = schemaOf();
    const error = await model
      .complete({
        messages: 'hi',
        responseFormat: {
          type: 'json',
          schema,
          jsonSchema: { type: 'object', properties: { id: { type: 'string' } } },
        },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(backtracked).toEqual([]);
  });

  it('that RE2 cannot run is an InvalidRequestError, nothing sent', async () => {
    const server = await servers.start([{ chunks: [replyWith('{}')] }]);
    const model = openaiCompatible('m', { baseURL: server.url, apiKey: 'k', retry: false });
    const error = await model
      .complete({
        messages: 'hi',
        responseFormat: { type: 'json', schema: z.object({ id: z.string().regex(/^(?=a)(a|a)*$/) }) },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).option).toBe('responseFormat.schema');
    expect(server.requests).toHaveLength(0);
  });
});
