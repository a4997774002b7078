import { z } from 'zod';
import { Agent } from '../../../src/agent/index.ts';
import { openai } from '../../../src/providers/openai/index.ts';
import type { SessionStore } from '../../../src/sessions/index.ts';
import { defineTool } from '../../../src/tools/index.ts';

/** The agent the tests' workers run as `chat`: an OpenAI-compatible model at a local test server. */
export const chatAgent = (baseURL: string, sessions: SessionStore) =>
  new Agent({ model: openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL, retry: false }), sessions });

/**
 * `chat` with a `refund` tool that needs approval; `executed` lists its executions in this process,
 * `onExecute` tells anyone else (a worker process counts them in Redis).
 */
export function refundAgent(
  baseURL: string,
  sessions: SessionStore,
  onExecute?: (amount: number) => Promise<unknown>,
) {
  const executed: number[] = [];
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds the card.',
    input: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: async ({ amount }) => {
      executed.push(amount);
      await onExecute?.(amount);
      return { refunded: amount };
    },
  });
  const agent = new Agent({
    model: openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL, retry: false }),
    sessions,
    tools: [refund],
  });
  return { agent, executed };
}

/** The model's side of `refundAgent`: asks for a refund, then answers with what the tool said. */
export function refundReply(body: { messages: { role: string; content?: unknown }[] }) {
  const last = body.messages.at(-1);
  if (last?.role !== 'tool')
    return { toolCalls: [{ id: 'call_refund', name: 'refund', arguments: '{"amount":5}' }] };
  return { text: ['Tool said: ', String(last.content)] };
}
