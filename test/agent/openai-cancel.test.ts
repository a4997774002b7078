import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, memorySessionStore } from '../../src/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { openaiFrames } from './openai-sse.ts';

// Streams the first two frames of a turn (role, then "Thinking") and then holds the response open,
// recording when the client goes away.
const open: ServerResponse[] = [];
const closed: number[] = [];
let requests = 0;
const server = createServer((request, response) => {
  const index = requests++;
  request.resume();
  response.on('close', () => closed.push(index));
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const frame of openaiFrames({ text: ['Thinking'] }).slice(0, 2)) response.write(frame);
  open.push(response);
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of open) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const agentWith = () => {
  const sessions = memorySessionStore();
  const model = openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: `${url}/v1`, retry: false });
  return { agent: new Agent({ model, sessions }), sessions };
};

describe('cancelling a run against a real server', () => {
  it('unsubscribing mid-stream aborts the HTTP request and appends nothing', async () => {
    const { agent, sessions } = agentWith();
    const seen = requests;
    const deltas: string[] = [];
    const subscription = agent.run('Hello', { sessionId: 'u' }).subscribe((event) => {
      if (event.type === 'text-delta') deltas.push(event.text);
    });
    await expect.poll(() => deltas).toEqual(['Thinking']);
    expect(closed).not.toContain(seen);
    subscription.unsubscribe();
    await expect.poll(() => closed.includes(seen), { timeout: 5000 }).toBe(true);
    expect(await sessions.get('u')).toBeNull();
  });

  it('aborting the signal mid-stream aborts the HTTP request, rejects with the reason, appends nothing', async () => {
    const { agent, sessions } = agentWith();
    const controller = new AbortController();
    const seen = requests;
    const chat = agent.chat('Hello', { sessionId: 'a', signal: controller.signal });
    await expect.poll(() => requests).toBe(seen + 1);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(chat).rejects.toBe(reason);
    await expect.poll(() => closed.includes(seen), { timeout: 5000 }).toBe(true);
    expect(await sessions.get('a')).toBeNull();
  });
});
