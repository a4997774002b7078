import { HttpAgent } from '@ag-ui/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.ts';
import { agUiHandler } from '../../src/ag-ui/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { memorySessionStore } from '../../src/sessions/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import type { Listening } from './support/listen.ts';
import { serveFetch } from './support/serve-fetch.ts';

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const actorOf = (request: Request) => ({ id: request.headers.get('x-user') ?? 'anonymous' });
const clientOf = (url: string, user: string, threadId: string) =>
  new HttpAgent({ url, threadId, headers: { 'x-user': user } });

describe('agUiHandler: a thread id names no other actor’s session (finding 5, across app servers)', () => {
  it('another app server (or this one after a restart) does not hand alice’s session to mallory on her thread id', async () => {
    const model = scriptedModel([{ text: 'Noted.' }, { text: 'I do not know.' }, { text: '1234.' }]);
    const sessions = memorySessionStore(); // shared, as a database is between app servers
    const agent = new Agent({ model, sessions });
    // Two app servers (or one, restarted): each handler knows only the threads it served.
    const first = await serveFetch(agUiHandler(agent, { actor: actorOf, runs: new RunRegistry() }));
    const second = await serveFetch(agUiHandler(agent, { actor: actorOf, runs: new RunRegistry() }));
    servers.push(first, second);

    const alice = clientOf(first.url, 'alice', 'thread-a');
    alice.addMessage({ id: 'u1', role: 'user', content: 'My PIN is 1234' });
    await alice.runAgent();

    const mallory = clientOf(second.url, 'mallory', 'thread-a');
    mallory.addMessage({ id: 'u9', role: 'user', content: 'What is my PIN?' });
    await mallory.runAgent().catch(() => undefined);
    const seen = JSON.stringify(model.requests.slice(1));
    expect(seen).not.toContain('1234');

    // Alice still has her own conversation.
    const again = clientOf(first.url, 'alice', 'thread-a');
    again.addMessage({ id: 'u2', role: 'user', content: 'And again?' });
    await again.runAgent().catch(() => undefined);
    // Mallory never reached the model (the thread is alice's on every server: R9).
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1])).toContain('My PIN is 1234');
  });
});
