/**
 * A tool-using agent with a session: it streams its answer, calls a tool on the way, and the second
 * question continues the same conversation (kept in a file store). Live with OPENAI_API_KEY;
 * otherwise a scripted model plays the model's part, offline.
 *
 *   npx node --conditions=rxagent-source examples/agent.ts
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, fileSessionStore } from 'rxagent';
import { openai } from 'rxagent/openai';
import { scriptedModel } from 'rxagent/testing';
import { z } from 'zod';

const model = process.env.OPENAI_API_KEY
  ? openai('gpt-4o-mini')
  : scriptedModel([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: ['It is 18 °C ', 'in Oslo.'] },
      { text: ['That is ', '64 °F.'] },
    ]);
const dir = await mkdtemp(join(tmpdir(), 'rxagent-sessions-'));

// The agent: a model, a tool, a session store.
const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 18 }),
});
const sessions = fileSessionStore({ dir });
const agent = new Agent({ model, tools: [getWeather], sessions, system: 'Be brief.' });

agent.run('What is the weather in Oslo?', { sessionId: 'demo' }).subscribe({
  next: (event) => {
    if (event.type === 'text-delta') process.stdout.write(event.text);
    if (event.type === 'tool-result') console.log(`[${event.toolCall.name} → ${event.outcome.status}]`);
    if (event.type === 'agent-completed') console.log();
  },
  complete: async () => {
    const { text } = await agent.chat('And in Fahrenheit?', { sessionId: 'demo' });
    const session = await sessions.get('demo');
    console.log(text);
    console.log(`session demo: ${session?.messages.length} messages, version ${session?.version}`);
  },
});
