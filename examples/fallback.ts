/**
 * Providers and fallback: one `ChatModel` interface for every provider, and `fallback()` moving
 * to the next model when one is unavailable before it has said anything. Here the primary is an
 * OpenAI-compatible server that is down (nothing listens on 127.0.0.1:9), so the bundled
 * recording answers; the response says which model did.
 *
 *   npx node --conditions=rxagent-source examples/fallback.ts
 */
import { fileURLToPath } from 'node:url';
import { fallback, NetworkError } from 'rxagent';
import { openaiCompatible } from 'rxagent/openai';
import { replayModel } from 'rxagent/testing';

const local = openaiCompatible('llama3.2', {
  name: 'local-llm',
  baseURL: 'http://127.0.0.1:9/v1',
  retry: false,
});
const backup = replayModel(fileURLToPath(new URL('./recordings/quickstart.jsonl', import.meta.url)), {
  speed: 0,
});

const model = fallback([local, backup], {
  onFallback: ({ error, from }) => {
    const reason = NetworkError.is(error) ? 'unreachable' : String(error);
    console.log(`${from.provider}/${from.modelId} ${reason}, falling back`);
  },
});

const response = await model.complete({ messages: 'Why stream LLM replies?' });
console.log(`answered by ${response.provider}/${response.model}: ${response.text.slice(0, 60)}…`);
