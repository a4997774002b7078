/**
 * Writes examples/recordings/quickstart.jsonl: the real `openai()` provider streaming from a
 * loopback server that speaks OpenAI's documented chat-completions SSE format at ~25 ms per
 * token, recorded with `recordModel`. Run again after changing the event shapes:
 *   node --conditions=rxagent-source scripts/record-quickstart.ts
 */
import { fileURLToPath } from 'node:url';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openai } from 'rxagent/openai';
import { recordModel } from 'rxagent/testing';
import { quickstartQuestion } from '../examples/recordings/quickstart-question.ts';

const reply =
  'Streaming shows the first words within a few hundred milliseconds, so the reader starts while the ' +
  'model is still writing. It lets an interface stop a reply the moment it goes wrong, which saves ' +
  'tokens and money. And tool calls and progress can be acted on as they arrive instead of after the fact.';
const tokens = reply.match(/\S+\s*/g) ?? [];
const chunk = (delta: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-quickstart', object: 'chat.completion.chunk', created: 1763769600, model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const events = [
    chunk({ role: 'assistant', content: '' }),
    ...tokens.map((token) => chunk({ content: token })),
    `data: ${JSON.stringify({ id: 'chatcmpl-quickstart', object: 'chat.completion.chunk', created: 1763769600, model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    `data: ${JSON.stringify({ id: 'chatcmpl-quickstart', object: 'chat.completion.chunk', created: 1763769600, model: 'gpt-4o-mini-2024-07-18', choices: [], usage: { prompt_tokens: 31, completion_tokens: tokens.length + 6, total_tokens: 37 + tokens.length } })}\n\n`,
    'data: [DONE]\n\n',
  ];
  let i = 0;
  const timer = setInterval(() => {
    const next = events[i++];
    if (next === undefined) {
      clearInterval(timer);
      res.end();
    } else res.write(next);
  }, 25);
});
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as AddressInfo;

const file = fileURLToPath(new URL('../examples/recordings/quickstart.jsonl', import.meta.url));
await rm(file, { force: true });
const model = recordModel(
  openai('gpt-4o-mini', { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'recording' }),
  file,
);
const response = await model.complete({ messages: quickstartQuestion });
console.log(`recorded ${tokens.length} tokens, ${response.timing.totalMs} ms, to ${file}`);
server.close();
