/**
 * Streams a reply token by token to the terminal; Ctrl-C cancels the request cleanly.
 *
 * Live with OPENAI_API_KEY (or OPENAI_BASE_URL for any OpenAI-compatible server, e.g. Ollama's
 * http://127.0.0.1:11434/v1); otherwise it replays a bundled recording.
 *
 *   npm run demo
 *   npm run demo -- "Explain backpressure in one paragraph."
 */
import type { ChatModel } from 'rxagent';
import { openai } from 'rxagent/openai';
import { replayModel } from 'rxagent/testing';

const live = Boolean(process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL);
const recording = new URL('./recordings/quickstart.jsonl', import.meta.url).pathname;
const model: ChatModel = live ? openai(process.env.OPENAI_MODEL ?? 'gpt-4o-mini') : replayModel(recording);

console.log(
  live
    ? `rxagent quickstart: live, ${model.provider}/${model.modelId} (Ctrl-C cancels)`
    : `rxagent quickstart: no OPENAI_API_KEY or OPENAI_BASE_URL set, replaying a bundled recording of ${model.modelId} (Ctrl-C cancels)`,
);

const prompt =
  process.argv[2] ??
  'In three short sentences: why stream LLM replies instead of waiting for the whole answer?';
const subscription = model.stream({ messages: prompt, temperature: 0.3 }).subscribe({
  next(event) {
    if (event.type === 'text-delta') process.stdout.write(event.text);
    if (event.type === 'stream-completed') {
      const { usage, cost, timing, finishReason } = event.response;
      const price = cost ? `, $${cost.totalUsd.toFixed(6)}` : '';
      console.log(
        `\n\n[${finishReason}] ${usage.inputTokens} in / ${usage.outputTokens} out tokens${price}, ` +
          `first token after ${timing.firstTokenMs ?? '-'} ms, ${timing.totalMs} ms in all`,
      );
    }
  },
  error(error: unknown) {
    console.error(`\n${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    process.exitCode = 1;
  },
});

process.once('SIGINT', () => {
  subscription.unsubscribe(); // aborts the HTTP request and its body reader
  console.log('\n[cancelled]');
  process.exitCode = 130;
});
