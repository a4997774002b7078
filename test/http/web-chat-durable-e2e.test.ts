import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStory } from '../../examples/web-chat/demo-story.ts';
import { openaiFrames } from '../agent/openai-sse.ts';
import { childrenOf, socketOwner } from '../support/socket-owner.ts';
import { startExampleServer } from '../support/start-example-server.ts';
import { startTranscriptServer, type TranscriptServer } from '../support/transcript-server.ts';
import { chromiumPath } from '../support/chromium-path.ts';

const browserPath = chromiumPath();
const redisUrl = 'redis://127.0.0.1:6379';
const pieces = (text: string) => text.match(/.{1,6}/gs) ?? [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of the last reply: its steps' blocks, in order, each trimmed, joined by a space. */
const lastText = async (page: Page) =>
  (await page.locator('.assistant').last().locator('.text').allTextContents()).map((t) => t.trim()).join(' ');

describe.skipIf(browserPath === undefined)('npm run web -- --durable in Chromium', () => {
  const prefix = `web-durable-${randomUUID().slice(0, 8)}:`;
  let openai: TranscriptServer;
  let chat: { child: ChildProcess; url: string };
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // The story streams slowly (about 6 s) so that the kill lands mid-reply.
    openai = await startTranscriptServer(() => ({
      chunks: openaiFrames({ text: pieces(demoStory) }),
      delayMs: 120,
    }));
    chat = await startExampleServer(
      'examples/web-chat/server.ts',
      {
        ...process.env,
        PORT: '0',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${openai.url}/v1`,
        REDIS_URL: redisUrl,
        WEB_CHAT_PREFIX: prefix,
        RUN_LOCK_MS: '2000',
        RUN_STALLED_MS: '1000',
      },
      ['--durable'],
    );
    browser = await chromium.launch({
      executablePath: browserPath ?? 'chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(chat.url);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    const workers = chat ? await childrenOf(chat.child.pid!) : [];
    // The chat stops its workers on SIGTERM; waited for at most 15 s (never, if it had exited).
    if (chat && chat.child.exitCode === null && chat.child.signalCode === null) {
      const exited = new Promise((resolve) => chat.child.once('exit', resolve));
      chat.child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      chat.child.kill('SIGKILL');
    }
    for (const pid of workers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await openai?.close();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  }, 60_000);

  it('runs on two worker processes; the worker holding the reply is killed mid-way and the reply finishes, its text once', async () => {
    const port = Number(new URL(openai.url).port);
    const workers = await childrenOf(chat.child.pid!);
    expect(workers).toHaveLength(2);

    await page.fill('#prompt', 'Tell me a story');
    await page.press('#prompt', 'Enter');
    await page.waitForFunction(
      () => (document.querySelector('.assistant .text')?.textContent ?? '').length > 30,
      null,
      { timeout: 30_000 },
    );
    // The worker holding the run: the one whose connection the model server is streaming to.
    let holder: number | undefined;
    for (let i = 0; i < 50 && holder === undefined; i++) {
      holder = await socketOwner({ serverPort: port }, await childrenOf(chat.child.pid!));
      if (holder === undefined) await sleep(20);
    }
    expect(workers).toContain(holder);
    const shownAtKill = (await lastText(page)).length;
    process.kill(holder!, 'SIGKILL');

    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 60_000,
    });
    const final = await lastText(page);
    expect(shownAtKill).toBeLessThan(demoStory.length);
    expect(final).toBe(demoStory);
    // The model was asked again for the step the dead worker was streaming.
    expect(openai.requests.length).toBe(2);
    // The dead worker was replaced: two workers again, the killed one not among them.
    await expect.poll(() => childrenOf(chat.child.pid!), { timeout: 15_000 }).toHaveLength(2);
    expect(await childrenOf(chat.child.pid!)).not.toContain(holder);
  }, 120_000);
});
