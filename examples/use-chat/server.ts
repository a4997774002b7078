/**
 * The AI SDK's useChat (React, built with Vite) on an rxagent Agent: a streamed reply, a tool
 * approval answered in the page, a reload that resumes the reply, and Stop.
 *
 * Live with OPENAI_API_KEY (OPENAI_BASE_URL and OPENAI_MODEL optional); otherwise the offline demo
 * model (it tells a story, and calls send_email when asked to "email <name>").
 *
 *   npx node --conditions=rxagent-source examples/use-chat/server.ts   then open http://127.0.0.1:3001
 */
import type { ChatModel } from 'rxagent';
import { openai } from 'rxagent/openai';
import { demoModel } from '../web-chat/demo-model.ts';
import { buildPage } from './build-page.ts';
import { startUseChat } from './use-chat.ts';

const {
  OPENAI_API_KEY: apiKey,
  OPENAI_BASE_URL: baseURL,
  OPENAI_MODEL: modelId,
  PORT,
  DEMO_DELAY_MS,
} = process.env;
const model: ChatModel =
  apiKey || baseURL
    ? openai(modelId ?? 'gpt-4o-mini', { ...(apiKey ? { apiKey } : {}), ...(baseURL ? { baseURL } : {}) })
    : demoModel(Number(DEMO_DELAY_MS ?? 40));
await buildPage();
const server = await startUseChat(model, Number(PORT ?? 3001));
console.log(`useChat example (${model.provider}/${model.modelId}): ${server.url}`);
const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
