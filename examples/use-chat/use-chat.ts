/**
 * The server of the useChat example: `chatHandler` at /api/chat (POST a turn or an approval, GET
 * /api/chat/:id/stream to resume, DELETE /api/chat/:id/stream to stop) and the built page.
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { Agent, type ChatModel, defineTool, memorySessionStore } from 'rxagent';
import { chatHandler } from 'rxagent/http';
import { z } from 'zod';
import { pageDist } from './build-page.ts';

/** A running useChat example. */
export interface UseChatServer {
  url: string;
  close(): Promise<void>;
}

const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email.',
  input: z.object({ to: z.string(), subject: z.string() }),
  needsApproval: true,
  execute: ({ to, subject }) => ({ sent: true, to, subject }),
});

const types: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript',
  css: 'text/css',
};

/**
 * Serves the page (built beforehand with `buildPage()`) and the chat endpoint on 127.0.0.1.
 * @param model the model the agent talks to
 * @param port 0 picks a free port
 */
export async function startUseChat(model: ChatModel, port = 0): Promise<UseChatServer> {
  const agent = new Agent({ model, tools: [sendEmail], sessions: memorySessionStore() });
  const chat = chatHandler(agent);
  const app = new Hono();
  app.all('/api/chat', (c) => chat(c.req.raw));
  app.all('/api/chat/*', (c) => chat(c.req.raw));
  app.get('*', async (c) => {
    const path = c.req.path === '/' ? 'index.html' : c.req.path.slice(1);
    if (!/^[\w./-]+$/.test(path) || path.includes('..')) return c.notFound();
    const body = await readFile(new URL(path, pageDist)).catch(() => undefined);
    if (!body) return c.notFound();
    return c.body(body, 200, { 'content-type': types[path.split('.').pop()!] ?? 'application/octet-stream' });
  });
  const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
