import { Agent } from '../../../src/agent/index.ts';
import { openai } from '../../../src/providers/openai/index.ts';
import type { SessionStore } from '../../../src/sessions/index.ts';

/** The agent the tests' workers run as `chat`: an OpenAI-compatible model at a local test server. */
export const chatAgent = (baseURL: string, sessions: SessionStore) =>
  new Agent({ model: openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL }), sessions });
