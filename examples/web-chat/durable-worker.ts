/**
 * A worker process of the durable web chat (started by `npm run web -- --durable`, two of them):
 * runs the chat's runs off the queue. SIGTERM hands the runs it holds back at their last checkpoint.
 */
import { chatAgent, chatModelFrom } from './chat-agent.ts';
import { durableChatSettings, openDurableChat } from './durable-chat.ts';

const { runs, sessions, close } = openDurableChat(durableChatSettings(process.env));
const worker = runs.work({ chat: chatAgent(chatModelFrom(process.env).model, sessions) }, { concurrency: 8 });
console.log(`web chat worker ${process.pid} ready`);
const stop = () =>
  void worker
    .close()
    .then(close)
    .finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
