/**
 * A browser chat on an rxagent Agent: tokens stream into the page, tool calls and results appear as
 * they happen, a tool that needs approval asks with Approve/Reject, Stop cancels the run, and a
 * dropped connection resumes where it left off (EventSource sends Last-Event-ID).
 *
 * Live with OPENAI_API_KEY (OPENAI_BASE_URL and OPENAI_MODEL optional); otherwise an offline demo
 * model that tells a story and calls send_email when asked to "email <name>".
 *
 *   npm run web            then open http://127.0.0.1:3000
 *   PORT=8080 npm run web
 */
import type { ChatModel } from 'rxagent';
import { openai } from 'rxagent/openai';
import { demoModel } from './demo-model.ts';
import { startWebChat } from './web-chat.ts';

const { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: baseURL, OPENAI_MODEL: modelId, PORT } = process.env;
const model: ChatModel = apiKey
  ? openai(modelId ?? 'gpt-4o-mini', { apiKey, ...(baseURL ? { baseURL } : {}) })
  : demoModel();
const fail = (message: string): never => {
  process.stderr.write(`web chat: ${message}\n`);
  process.exit(1);
};
const port = Number(PORT ?? 3000);
if (!/^\d{1,5}$/.test(PORT ?? '3000') || port > 65535)
  fail(`PORT must be a number from 0 to 65535, not "${PORT}"`);
const chat = await startWebChat(model, port).catch((error: NodeJS.ErrnoException) =>
  error.code === 'EADDRINUSE'
    ? fail(`port ${port} on 127.0.0.1 is in use; set PORT to another`)
    : fail(error.message),
);
console.log(
  `web chat (${apiKey ? `live, ${model.provider}/${model.modelId}` : 'offline demo model'}): ${chat.url}`,
);
const stop = () => void chat.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
