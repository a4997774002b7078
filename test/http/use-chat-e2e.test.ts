import type { ChildProcess } from 'node:child_process';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStory } from '../../examples/web-chat/demo-story.ts';
import { startExampleServer } from '../support/start-example-server.ts';
import { chromiumPath } from '../support/chromium-path.ts';

const browserPath = chromiumPath();

/** Starts the useChat example (it builds its React page with Vite first); resolves with its URL. */
function startExample(): Promise<{ child: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', DEMO_DELAY_MS: '80' };
  delete env['OPENAI_API_KEY'];
  delete env['OPENAI_BASE_URL'];
  return startExampleServer('examples/use-chat/server.ts', env);
}

const texts = (page: Page) => page.locator('.assistant').last().locator('.text').allTextContents();
const lastReply = async (page: Page) => (await texts(page)).join('');
const status = (page: Page) => page.locator('#status').getAttribute('data-status');
const waitForStatus = (page: Page, value: string, timeout = 30_000) =>
  page.waitForFunction(
    (want) => document.querySelector('#status')?.getAttribute('data-status') === want,
    value,
    {
      timeout,
    },
  );

/** Waits until the reply to the last user message (after it on the page) holds more than `length` characters. */
const newReplyLongerThan = (page: Page, length: number) =>
  page.waitForFunction((min) => {
    const messages = document.querySelectorAll('.message');
    const last = messages[messages.length - 1];
    return last?.classList.contains('assistant') === true && (last.textContent ?? '').length > min;
  }, length);

async function send(page: Page, text: string) {
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
  await page.locator('.user', { hasText: text }).waitFor();
}

describe.skipIf(browserPath === undefined)(
  "the AI SDK's useChat (React, Vite) against chatHandler, in Chromium",
  () => {
    let example: { child: ChildProcess; url: string };
    let browser: Browser;
    let page: Page;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      example = await startExample();
      browser = await chromium.launch({
        executablePath: browserPath ?? 'chromium',
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      page = await browser.newPage({ viewport: { width: 900, height: 800 } });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(example.url);
      await waitForStatus(page, 'ready');
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      example?.child.kill('SIGTERM');
    });

    it('streams a reply: the text grows chunk by chunk, then useChat is ready', async () => {
      await send(page, 'Tell me a story');
      await page.waitForFunction(
        () => (document.querySelector('.assistant .text')?.textContent ?? '').length > 0,
      );
      const early = await lastReply(page);
      await waitForStatus(page, 'ready');
      const final = await lastReply(page);
      expect(early.length).toBeGreaterThan(0);
      expect(early.length).toBeLessThan(final.length);
      expect(final).toBe(demoStory);
      expect(pageErrors).toEqual([]);
    }, 60_000);

    it('a tool approval answered in the page: the tool runs and the reply goes on', async () => {
      await send(page, 'Please email Bob');
      const tool = page.locator('.assistant').last().locator('.tool');
      await tool.locator('button', { hasText: 'Approve' }).waitFor({ timeout: 15_000 });
      expect(await tool.getAttribute('data-state')).toBe('approval-requested');
      expect(await tool.textContent()).toContain('send_email({"to":"Bob","subject":"Hello"})');
      await tool.locator('button', { hasText: 'Approve' }).click();
      await page.locator('.output', { hasText: '"sent":true' }).waitFor({ timeout: 15_000 });
      await waitForStatus(page, 'ready');
      expect(await tool.getAttribute('data-state')).toBe('output-available');
      expect(await texts(page)).toEqual(['Let me send that.', 'Done: the email is on its way.']);
      expect(pageErrors).toEqual([]);
    }, 60_000);

    it('a reload mid-reply resumes it (resume: true): the whole reply once, no word lost or repeated', async () => {
      await send(page, 'Tell me another story');
      await newReplyLongerThan(page, 30);
      expect(await status(page)).toBe('streaming');
      const before = await lastReply(page);
      await page.reload();
      // After the reload the stored conversation is shown and the reply picks up again.
      await page.locator('.user', { hasText: 'Tell me another story' }).waitFor();
      await waitForStatus(page, 'streaming');
      await waitForStatus(page, 'ready');
      const after = await lastReply(page);
      expect(before.length).toBeLessThan(demoStory.length);
      expect(after).toBe(demoStory);
      expect(await page.locator('.assistant').count()).toBe(3);
      expect(pageErrors).toEqual([]);
    }, 60_000);

    it('Stop cancels the run on the server: nothing more arrives, and there is nothing to resume', async () => {
      await send(page, 'One more story');
      await newReplyLongerThan(page, 10);
      await page.click('#stop');
      await waitForStatus(page, 'ready');
      const stopped = await lastReply(page);
      await page.waitForTimeout(1000);
      expect(await lastReply(page)).toBe(stopped);
      expect(stopped.length).toBeLessThan(demoStory.length);
      const resume = await page.evaluate(async () => {
        const id = sessionStorage.getItem('chat-id')!;
        return (await fetch(`/api/chat/${encodeURIComponent(id)}/stream`)).status;
      });
      expect(resume).toBe(204);
      await page.reload();
      await waitForStatus(page, 'ready');
      expect(await lastReply(page)).toBe(stopped);
      expect(pageErrors).toEqual([]);
    }, 60_000);
  },
);
