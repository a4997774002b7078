/**
 * Human in the loop: a tool marked `needsApproval` waits for the run's `approve` before it runs.
 * Here "the person" approves transfers under 100 and declines the rest; the model sees a declined
 * call as a `rejected` outcome. Offline (a scripted model plays the model's part).
 *
 *   npx node --conditions=rxagent-source examples/agent-approvals.ts
 */
import { Agent, defineTool } from 'rxagent';
import { scriptedModel } from 'rxagent/testing';
import { z } from 'zod';

const transfer = defineTool({
  name: 'transfer',
  description: 'Moves money to a payee.',
  input: z.object({ payee: z.string(), amount: z.number().positive() }),
  needsApproval: true,
  execute: ({ payee, amount }) => ({ sent: amount, to: payee }),
});

const model = scriptedModel([
  {
    toolCalls: [
      { name: 'transfer', arguments: { payee: 'Ada', amount: 40 } },
      { name: 'transfer', arguments: { payee: 'Mallory', amount: 5000 } },
    ],
  },
  { text: 'Sent 40 to Ada; the 5000 to Mallory was declined.' },
]);

const agent = new Agent({ model, tools: [transfer], approvalTimeoutMs: 60_000 });
const result = await agent.chat('Pay Ada 40 and Mallory 5000.', {
  // Ask a person (a prompt, a UI, a chat message); a Promise or an Observable works too.
  approve: async ({ toolCall }) => {
    const { payee, amount } = toolCall.arguments as { payee: string; amount: number };
    const approved = amount < 100;
    console.log(`approve transfer of ${amount} to ${payee}? ${approved ? 'yes' : 'no'}`);
    return approved;
  },
});
for (const message of result.messages.filter((m) => m.role === 'tool')) {
  console.log(`${message.toolCallId}: ${message.isError ? 'not run' : 'ran'} → ${String(message.content)}`);
}
console.log(result.text);
