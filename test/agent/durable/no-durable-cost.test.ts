import { Observable } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { memorySessionStore, ToolRegistry } from '../../../src/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { agentOn, countingTools, turnFor } from './durable-fixture.ts';

const servers = useTranscriptServer();

/**
 * Observable subscriptions one in-process run makes (two steps, two parallel tool calls, a session).
 * Measured with this very test on the commit before durable runs (dc60ea9): the checkpoint hooks,
 * when absent, add no Observable to the loop.
 */
const SUBSCRIPTIONS_BEFORE_DURABLE_RUNS = 129;

describe('the in-process loop without a durable run', () => {
  it('subscribes no more Observables than before the checkpoint hooks, and asks for no marker', async () => {
    const server = await servers.start((request) => turnFor(request));
    const tools = countingTools(new Map(), {});
    const invoke = vi.spyOn(ToolRegistry.prototype, 'invoke');
    const agent = agentOn(server.url, tools, memorySessionStore());
    await agent.chat('warm up', { sessionId: 'warm' }); // module caches, the first connection
    const subscribe = vi.spyOn(Observable.prototype, 'subscribe');
    await agent.chat('Charge me and look Oslo up.', { sessionId: 'measured' });
    const subscriptions = subscribe.mock.calls.length;
    subscribe.mockRestore();
    expect(invoke.mock.calls.every(([, options]) => options && !('beforeExecute' in options))).toBe(true);
    invoke.mockRestore();
    expect(subscriptions).toBe(SUBSCRIPTIONS_BEFORE_DURABLE_RUNS);
  });
});
