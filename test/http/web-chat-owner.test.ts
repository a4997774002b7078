import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoModel } from '../../examples/web-chat/demo-model.ts';
import { inProcessChat, startWebChat, type WebChat } from '../../examples/web-chat/web-chat.ts';

/** One person's browser: it keeps the cookies the chat sets, as a browser does. */
function person(base: string) {
  let cookie = '';
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    });
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
    return response;
  };
  return {
    /** Opens the page (which gives the browser its cookie). */
    open: async () => void (await (await call('/')).text()),
    get: (path: string) => call(path),
    post: (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body) }),
    get cookie() {
      return cookie;
    },
  };
}

/** Reads a run's SSE stream until it ends (or waits for an approval); returns its data lines. */
async function events(response: Response, until: RegExp): Promise<string> {
  const reader = response.body!.getReader();
  let text = '';
  const deadline = Date.now() + 15_000;
  while (!until.test(text) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  return text;
}

describe('the web chat with two people', () => {
  let chat: WebChat;
  beforeAll(async () => {
    chat = await startWebChat(inProcessChat(demoModel(1)));
  });
  afterAll(() => chat?.close());

  it('gives each browser its own unguessable, script-proof identity', async () => {
    const alice = person(chat.url);
    await alice.open();
    const page = await fetch(`${chat.url}/`);
    const cookie = page.headers.get('set-cookie') ?? '';
    await page.text();
    expect(cookie).toMatch(/^rxagent-chat=[0-9a-f-]{36}; /);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie.split(';')[0]).not.toBe(alice.cookie);
  });

  it('lets nobody but its owner read, continue, watch, stop or approve a conversation', async () => {
    const alice = person(chat.url);
    const mallory = person(chat.url);
    await alice.open();
    await mallory.open();
    const sessionId = crypto.randomUUID();
    const first = await alice.post('/api/chat', { message: 'My PIN is 4711', sessionId });
    expect(first.status).toBe(201);
    const { runId: firstRun } = (await first.json()) as { runId: string };
    expect(await events(await alice.get(`/api/runs/${firstRun}`), /event: end/)).toContain('The end.');

    // Alice's reload brings her conversation back.
    const mine = await alice.get(`/api/sessions/${sessionId}`);
    expect(mine.status).toBe(200);
    expect(JSON.stringify(await mine.json())).toContain('My PIN is 4711');

    // Mallory, who learned the id, gets what an id nobody used gets: 404 Not found.
    const foreign = await mallory.get(`/api/sessions/${sessionId}`);
    const unknown = await mallory.get(`/api/sessions/${crypto.randomUUID()}`);
    expect([foreign.status, await foreign.text()]).toEqual([unknown.status, await unknown.text()]);
    expect(foreign.status).toBe(404);
    // Without any cookie (another site's page, curl) the same.
    const anonymous = await fetch(`${chat.url}/api/sessions/${sessionId}`);
    expect(anonymous.status).toBe(404);

    // Sending on Alice's id does not let the model read Alice's conversation to Mallory.
    const hijack = await mallory.post('/api/chat', { message: 'What did I say before?', sessionId });
    if (hijack.status === 201) {
      const { runId } = (await hijack.json()) as { runId: string };
      const said = await events(await mallory.get(`/api/runs/${runId}`), /event: end/);
      expect(said).not.toContain('4711');
    } else expect(hijack.status).toBe(404);
    const after = await alice.get(`/api/sessions/${sessionId}`);
    expect(JSON.stringify(await after.json())).not.toContain('What did I say before?');

    // Alice's run waiting for her approval: Mallory can neither watch it, nor stop it, nor decide it.
    const asked = await alice.post('/api/chat', { message: 'Please email Bob', sessionId });
    const { runId } = (await asked.json()) as { runId: string };
    expect(await events(await alice.get(`/api/runs/${runId}`), /approval-requested/)).toContain(
      'approval-requested',
    );
    const watch = await mallory.get(`/api/runs/${runId}`);
    expect(watch.status).toBe(404);
    await watch.text();
    const stop = await mallory.post(`/api/runs/${runId}/cancel`, {});
    expect(await stop.json()).toEqual({ cancelled: false });
    const decide = await mallory.post(`/api/runs/${runId}/approvals/call_1`, { approved: true });
    expect(decide.status).toBe(404);
    await decide.text();
    const session = (await (await alice.get(`/api/sessions/${sessionId}`)).json()) as {
      run: { id: string } | null;
    };
    expect(session.run?.id).toBe(runId);
    const approve = await alice.post(`/api/runs/${runId}/approvals/call_1`, { approved: false });
    expect(approve.status).toBe(200);
    await approve.text();
  });
});
