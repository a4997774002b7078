import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, memorySessionStore } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

const transfer = defineTool({
  name: 'transfer',
  description: 'Moves money.',
  input: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => ({ done: amount }),
});
const call = (id: string) => ({ toolCalls: [{ id, name: 'transfer', arguments: { amount: 5 } }] });

describe('a long-lived signal', () => {
  it('keeps no listener after runs and tool calls that used it have ended', async () => {
    const controller = new AbortController();
    const { signal } = controller;
    const turns = [call('c1'), { text: 'done' }, call('c2'), { text: 'done' }];
    const agent = new Agent({
      model: scriptedModel(turns),
      tools: [transfer],
      sessions: memorySessionStore(),
      approve: () => true,
      approvalTimeoutMs: 60_000,
    });
    await agent.chat('Pay', { signal, sessionId: 's' });
    await agent.chat('Pay again', { signal, sessionId: 's' });
    await expect(agent.invokeTool('transfer', { amount: 1 }, { signal })).resolves.toMatchObject({
      status: 'ok',
    });
    await expect(agent.chat('Fails', { signal })).rejects.toThrow(); // the script is exhausted
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
