import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, memorySessionStore } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { expectNoOrphans } from './no-orphans.ts';

const sent: string[] = [];
const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email.',
  input: z.object({ to: z.string() }),
  execute: ({ to }) => {
    sent.push(to);
    return 'sent';
  },
});
const email = (to: string) => ({ toolCalls: [{ id: `c_${to}`, name: 'send_email', arguments: { to } }] });

describe('R18a-1: a stopWhen that throws keeps the step whose tools ran', () => {
  it('the email sent in the step is in the session, with its call, and the run fails with the error', async () => {
    sent.length = 0;
    const sessions = memorySessionStore();
    const agent = new Agent({
      model: scriptedModel([email('ann@example.com'), { text: 'never' }]),
      tools: [sendEmail],
      sessions,
    });
    const boom = new Error('stopWhen broke');
    await expect(
      agent.chat('email Ann', {
        sessionId: 's',
        stopWhen: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    expect(sent).toEqual(['ann@example.com']);
    const messages = (await sessions.get('s'))?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expectNoOrphans(messages);
  });
});
