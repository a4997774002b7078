/**
 * Streams a reply token by token to the terminal; Ctrl-C cancels the request cleanly.
 *
 * Live with OPENAI_API_KEY (OpenAI, or the server at OPENAI_BASE_URL), or with OPENAI_BASE_URL
 * alone for a keyless OpenAI-compatible server such as Ollama's http://127.0.0.1:11434/v1;
 * OPENAI_MODEL picks the model. Otherwise it replays a bundled recording, which answers one fixed
 * question whatever the prompt.
 *
 *   npm run demo
 *   npm run demo -- "Explain backpressure in one paragraph."
 *   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=llama3.2 npm run demo -- "Why is the sky blue?"
 */
import { fileURLToPath } from 'node:url';
import type { ChatModel } from 'rxagent';
import { openai, openaiCompatible } from 'rxagent/openai';
import { replayModel } from 'rxagent/testing';
import { quickstartQuestion } from './recordings/quickstart-question.ts';

const { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: baseURL, OPENAI_MODEL: modelId } = process.env;
const recording = fileURLToPath(new URL('./recordings/quickstart.jsonl', import.meta.url));
const model: ChatModel = apiKey
  ? openai(modelId ?? 'gpt-4o-mini')
  : baseURL
    ? openaiCompatible(modelId ?? 'llama3.2', { baseURL })
    : replayModel(recording);
const live = Boolean(apiKey || baseURL);

// `npm run demo -- Explain backpressure` (unquoted) arrives as several arguments.
const argument = process.argv.slice(2).join(' ').trim();
const prompt = live && argument !== '' ? argument : quickstartQuestion;

console.log(
  live
    ? `rxagent quickstart: live, ${model.provider}/${model.modelId} (Ctrl-C cancels)`
    : `rxagent quickstart: no OPENAI_API_KEY or OPENAI_BASE_URL set, replaying a bundled recording of ${model.modelId} (Ctrl-C cancels)`,
);
if (!live) {
  console.log(
    `The recording answers a fixed question: "${quickstartQuestion}"` +
      (argument === '' ? '' : ' (your prompt is used only live: set OPENAI_API_KEY or OPENAI_BASE_URL).'),
  );
}

const subscription = model.stream({ messages: prompt, temperature: 0.3 }).subscribe({
  next(event) {
    if (event.type === 'text-delta') process.stdout.write(event.text);
    if (event.type === 'stream-completed') {
      const { usage, cost, timing, finishReason } = event.response;
      const tokens = usage
        ? `${usage.inputTokens} in / ${usage.outputTokens} out tokens`
        : 'no usage reported';
      const price = cost ? `, $${cost.totalUsd.toFixed(6)}` : '';
      console.log(
        `\n\n[${finishReason}] ${tokens}${price}, ` +
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
