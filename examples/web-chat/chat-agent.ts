/**
 * The web chat's agent, the same in one process (`npm run web`) and on durable runs' workers
 * (`npm run web -- --durable`): a helpful assistant with one tool that needs approval.
 */
import { Agent, type ChatModel, defineTool, type SessionStore } from 'rxagent';
import { openai } from 'rxagent/openai';
import { z } from 'zod';
import { demoModel } from './demo-model.ts';

/** The tool that needs a person's approval: it only pretends to send. */
const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email.',
  input: z.object({ to: z.string(), subject: z.string() }),
  needsApproval: true,
  execute: ({ to, subject }) => ({ sent: true, to, subject, id: `msg_${Date.now()}` }),
});

/** The chat's agent on `model`, keeping its conversations in `sessions`. */
export function chatAgent(model: ChatModel, sessions: SessionStore): Agent {
  return new Agent({
    model,
    tools: [sendEmail],
    sessions,
    system: 'You are a helpful assistant. Use send_email when asked to email someone.',
  });
}

/**
 * Live with OPENAI_API_KEY (OPENAI_BASE_URL and OPENAI_MODEL optional); otherwise the offline demo
 * model.
 */
export function chatModelFrom(env: NodeJS.ProcessEnv): { model: ChatModel; live: boolean } {
  const { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: baseURL, OPENAI_MODEL: modelId } = env;
  if (!apiKey) return { model: demoModel(), live: false };
  return { model: openai(modelId ?? 'gpt-4o-mini', { apiKey, ...(baseURL ? { baseURL } : {}) }), live: true };
}
