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
 *   npm run web -- --durable    the runs on two worker processes and Redis (durable-chat.ts):
 *                               kill a worker mid-reply and the reply still finishes
 */
import { chatModelFrom } from './chat-agent.ts';
import { inProcessChat, startWebChat } from './web-chat.ts';

const { PORT } = process.env;
const { model, live } = chatModelFrom(process.env);
const durable = process.argv.includes('--durable');
const fail = (message: string): never => {
  process.stderr.write(`web chat: ${message}\n`);
  process.exit(1);
};
const port = Number(PORT ?? 3000);
if (!/^\d{1,5}$/.test(PORT ?? '3000') || port > 65535)
  fail(`PORT must be a number from 0 to 65535, not "${PORT}"`);
// Loaded only with --durable: the in-process chat needs neither BullMQ nor Redis.
const backend = durable
  ? await import('./durable-chat.ts').then(({ durableChat, durableChatSettings }) =>
      durableChat(durableChatSettings(process.env)),
    )
  : inProcessChat(model);
const chat = await startWebChat(backend, port).catch(async (error: NodeJS.ErrnoException) => {
  await backend.close(); // with --durable, its worker processes too
  return error.code === 'EADDRINUSE'
    ? fail(`port ${port} on 127.0.0.1 is in use; set PORT to another`)
    : fail(error.message);
});
console.log(
  `web chat (${live ? `live, ${model.provider}/${model.modelId}` : 'offline demo model'}` +
    `${durable ? ', durable runs on two workers' : ''}): ${chat.url}`,
);
const stop = () => void chat.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
