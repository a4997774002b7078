import { parseJsonEventStream, type UIMessageChunk, uiMessageChunkSchema } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../../src/agent/index.ts';
import type { Message } from '../../../src/core/index.ts';
import { chatHandler, type ChatUIMessage, fromUIMessages } from '../../../src/http/index.ts';
import { memorySessionStore } from '../../../src/sessions/index.ts';
import { scriptedModel } from '../../../src/testing/index.ts';
import { defineTool } from '../../../src/tools/index.ts';
import type { Listening } from '../support/listen.ts';
import { serveFetch } from '../support/serve-fetch.ts';

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const getTime = defineTool({
  name: 'get_time',
  description: 'The time.',
  input: z.object({}),
  execute: () => ({ time: '12:00' }),
});

async function serve(agent: Agent) {
  const server = await serveFetch(chatHandler(agent));
  servers.push(server);
  return server.url;
}

const post = (url: string, body: unknown) =>
  fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const userMessage = (text: string, id = 'u1'): ChatUIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

/** The chunks of a UI message stream response, each parsed by the ai package's own reader. */
async function chunksOf(response: Response, limit = Infinity, signal?: AbortController) {
  const chunks: UIMessageChunk[] = [];
  const reader = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).getReader();
  while (chunks.length < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!value.success) throw value.error;
    chunks.push(value.value);
  }
  if (chunks.length >= limit) signal?.abort();
  return chunks;
}

describe('chatHandler', () => {
  it('refuses a body that is not a useChat request (400), an unknown route (404)', async () => {
    const url = await serve(new Agent({ model: scriptedModel([]) }));
    expect((await post(url, { messages: 'hi' })).status).toBe(400);
    expect((await fetch(`${url}/api/chat/elsewhere`)).status).toBe(404);
  });

  it('answers a resume with 204 when the chat has no running run, and a Stop with stopped: false', async () => {
    const url = await serve(new Agent({ model: scriptedModel([]) }));
    expect((await fetch(`${url}/api/chat/chat-1/stream`)).status).toBe(204);
    const stop = await fetch(`${url}/api/chat/chat-1/stream`, { method: 'DELETE' });
    expect(await stop.json()).toEqual({ stopped: false });
  });

  it('an approval answer for a chat whose run waits for nothing is a 409', async () => {
    const url = await serve(new Agent({ model: scriptedModel([]) }));
    const answered: ChatUIMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-send_email',
          toolCallId: 'call_1',
          state: 'approval-responded',
          input: {},
          approval: { id: 'x/call_1', approved: true },
        },
      ],
    };
    const response = await post(url, {
      id: 'chat-2',
      messages: [userMessage('hi'), answered],
      trigger: 'submit-message',
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: 'approval_not_pending' } });
  });

  it('streams with the protocol header; a client that leaves does not stop the run: a resume gets all of it', async () => {
    const model = scriptedModel([{ text: Array.from({ length: 40 }, (_, i) => `w${i} `) }], { delayMs: 20 });
    const url = await serve(new Agent({ model, sessions: memorySessionStore() }));
    const controller = new AbortController();
    const first = await fetch(`${url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'chat-3', messages: [userMessage('Talk')], trigger: 'submit-message' }),
      signal: controller.signal,
    });
    expect(first.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    await chunksOf(first, 5, controller).catch(() => undefined);
    const resumed = await fetch(`${url}/api/chat/chat-3/stream`);
    expect(resumed.status).toBe(200);
    const chunks = await chunksOf(resumed);
    const text = chunks.flatMap((chunk) =>
      chunk.type === 'text-delta' ? [(chunk as { delta: string }).delta] : [],
    );
    expect(text.join('')).toBe(Array.from({ length: 40 }, (_, i) => `w${i} `).join(''));
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('without sessions the model gets the whole conversation, tool calls with their outcomes', async () => {
    const model = scriptedModel([{ text: 'Noon, still.' }]);
    const url = await serve(new Agent({ model, tools: [getTime] }));
    const history: ChatUIMessage[] = [
      userMessage('Time?'),
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'Checking.' },
          {
            type: 'tool-get_time',
            toolCallId: 'c1',
            state: 'output-available',
            input: {},
            output: { time: '12:00' },
          },
          {
            type: 'tool-get_time',
            toolCallId: 'c2',
            state: 'approval-requested',
            input: {},
            approval: { id: 'x' },
          },
          { type: 'step-start' },
          { type: 'text', text: 'It is noon.' },
        ],
      },
      userMessage('And now?', 'u2'),
    ];
    await chunksOf(await post(url, { id: 'chat-4', messages: history, trigger: 'submit-message' }));
    const sent = model.requests[0]!.messages as readonly Message[];
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[1]!.toolCalls).toEqual([{ id: 'c1', name: 'get_time', arguments: {} }]);
    expect(fromUIMessages(history)[2]).toMatchObject({
      role: 'tool',
      toolCallId: 'c1',
      content: '{"time":"12:00"}',
    });
  });

  it("a chat belongs to the actor that started it: another actor's resume, Stop or message is a 404", async () => {
    const model = scriptedModel([{ text: Array.from({ length: 30 }, (_, i) => `w${i} `) }], { delayMs: 30 });
    const agent = new Agent({ model, sessions: memorySessionStore() });
    const server = await serveFetch(
      chatHandler(agent, { actor: (request) => ({ id: request.headers.get('x-user') ?? 'nobody' }) }),
    );
    servers.push(server);
    const as = (user: string, init: RequestInit = {}) => ({
      ...init,
      headers: { ...init.headers, 'x-user': user },
    });
    const controller = new AbortController();
    const started = await fetch(
      `${server.url}/api/chat`,
      as('ann', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'chat-6', messages: [userMessage('Talk')], trigger: 'submit-message' }),
        signal: controller.signal,
      }),
    );
    await chunksOf(started, 3, controller).catch(() => undefined);
    expect((await fetch(`${server.url}/api/chat/chat-6/stream`, as('bob'))).status).toBe(404);
    expect(
      (await fetch(`${server.url}/api/chat/chat-6/stream`, as('bob', { method: 'DELETE' }))).status,
    ).toBe(404);
    const intrude = await fetch(
      `${server.url}/api/chat`,
      as('bob', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'chat-6', messages: [userMessage('Hi')], trigger: 'submit-message' }),
      }),
    );
    expect(intrude.status).toBe(404);
    expect(model.requests).toHaveLength(1);
    const stop = await fetch(`${server.url}/api/chat/chat-6/stream`, as('ann', { method: 'DELETE' }));
    expect(await stop.json()).toEqual({ stopped: true });
  });
});
