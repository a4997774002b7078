import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStory } from '../../examples/web-chat/demo-story.ts';
import { openaiFrames } from '../agent/openai-sse.ts';
import { startTranscriptServer, type TranscriptServer } from '../support/transcript-server.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const output = fileURLToPath(new URL('../../.test-output/', import.meta.url));
const chromiumPath = '/usr/bin/chromium';
const reply = 'Done: the email is on its way.';
const pieces = (text: string) => text.match(/.{1,6}/gs) ?? [];

/** A fake OpenAI server: asked to email someone it calls send_email; else it streams the story. */
function fakeOpenAI(): Promise<TranscriptServer> {
  return startTranscriptServer((request) => {
    const { messages } = request.json as { messages: { role: string; content: unknown }[] };
    const last = messages.at(-1);
    if (last?.role === 'tool') return { chunks: openaiFrames({ text: pieces(reply) }), delayMs: 20 };
    if (typeof last?.content === 'string' && /email bob/i.test(last.content)) {
      return {
        chunks: openaiFrames({
          text: ['Let me send that.'],
          toolCalls: [{ id: 'call_1', name: 'send_email', arguments: '{"to":"Bob","subject":"Hello"}' }],
        }),
      };
    }
    // The stories that are stopped or cut mid-way stream slowly (about 5 s), so that on a loaded
    // machine the Stop click or the dropped connection still lands before the story ends.
    const slow = typeof last?.content === 'string' && /another|one more/i.test(last.content);
    return { chunks: openaiFrames({ text: pieces(demoStory) }), delayMs: slow ? 120 : 40 };
  });
}

/** Starts `npm run web` as a child process against the fake server; resolves with its URL. */
function startWebChat(openaiUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const env = { ...process.env, PORT: '0', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${openaiUrl}/v1` };
  const child = spawn(process.execPath, ['--conditions=rxagent-source', 'examples/web-chat/server.ts'], {
    cwd: root,
    env,
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (part: string) => {
      stdout += part;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0];
      if (url) resolve({ child, url });
    });
    child.stderr!.setEncoding('utf8').on('data', (part: string) => (stderr += part));
    child.on('exit', (code) => reject(new Error(`web chat exited with ${code}: ${stderr}`)));
  });
}

const assistantTexts = (page: Page) => page.locator('.assistant .text').allTextContents();
const lastText = async (page: Page) => (await assistantTexts(page)).at(-1) ?? '';

async function send(page: Page, message: string) {
  await page.fill('#prompt', message);
  await page.press('#prompt', 'Enter');
  await page.locator('.user', { hasText: message }).waitFor();
}

describe.skipIf(!existsSync(chromiumPath))('examples/web-chat in Chromium', () => {
  let openai: TranscriptServer;
  let chat: { child: ChildProcess; url: string };
  let proxy: TcpProxy;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    openai = await fakeOpenAI();
    chat = await startWebChat(openai.url);
    proxy = await startTcpProxy(chat.url);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(proxy.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    chat?.child.kill('SIGTERM');
    await openai?.close();
  });

  it('answers an unknown run with 404 and a RunNotFoundError body (what fromSSE reads back)', async () => {
    const answer = await fetch(`${chat.url}/api/runs/no-such-run`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      error: expect.objectContaining({ name: 'RunNotFoundError', runId: 'no-such-run' }),
    });
  });

  it('streams the reply: the text grows token by token, then the run is done', async () => {
    await send(page, 'Tell me a story');
    await page.waitForFunction(
      () => (document.querySelector('.assistant .text')?.textContent ?? '').length > 0,
    );
    const early = await lastText(page);
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 40_000,
    });
    const final = await lastText(page);
    expect(early.length).toBeGreaterThan(0);
    expect(early.length).toBeLessThan(final.length);
    expect(final).toBe(demoStory);
  }, 90_000);

  it('asks for approval, runs the tool once approved and shows its result', async () => {
    await send(page, 'Please email Bob');
    await page.locator('button.approve').waitFor({ timeout: 15_000 });
    await expect(page.locator('.tool').last().textContent()).resolves.toContain(
      'send_email({"to":"Bob","subject":"Hello"})',
    );
    await page.click('button.approve');
    await page.locator('.tool', { hasText: '"sent":true' }).waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 15_000,
    });
    expect(await lastText(page)).toBe(`Let me send that. ${reply}`);
    mkdirSync(output, { recursive: true });
    await page.screenshot({ path: `${output}web-chat.png`, fullPage: true });
  }, 90_000);

  it('Stop ends the stream and aborts the model request on the server', async () => {
    const aborted = openai.nextClientAbort();
    const before = openai.clientAborts;
    await send(page, 'Tell me another story');
    await page.waitForFunction(() => {
      const texts = document.querySelectorAll('.assistant .text');
      return (texts[texts.length - 1]?.textContent ?? '').length > 20;
    });
    await page.click('#stop');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'stopped', null, {
      timeout: 15_000,
    });
    await aborted;
    expect(openai.clientAborts).toBe(before + 1);
    const stopped = await lastText(page);
    expect(stopped.length).toBeLessThan(demoStory.length);
    expect(demoStory.startsWith(stopped)).toBe(true);
  }, 90_000);

  it('survives a dropped connection: reconnects, resumes, and the text completes exactly once', async () => {
    await send(page, 'One more story');
    await page.waitForFunction(() => {
      const texts = document.querySelectorAll('.assistant .text');
      return (texts[texts.length - 1]?.textContent ?? '').length > 30;
    });
    const connections = proxy.connections;
    proxy.drop();
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 40_000,
    });
    expect(proxy.connections).toBeGreaterThan(connections);
    expect(await lastText(page)).toBe(demoStory);
  }, 90_000);
});
