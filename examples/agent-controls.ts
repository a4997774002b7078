/**
 * A run under the caller's control: a per-run system prompt, a forced first tool, a structured
 * answer validated by zod, a budget that stops gracefully, `for await` over the events, and a long
 * session on a small context window that is summarised instead of overflowing. Live with
 * OPENAI_API_KEY; otherwise scripted models play the models' parts, offline.
 *
 *   npx node --conditions=rxagent-source examples/agent-controls.ts
 */
import { Agent, defineTool, eachEvent, memorySessionStore } from 'rxagent';
import { openai } from 'rxagent/openai';
import { scriptedModel } from 'rxagent/testing';
import { z } from 'zod';

const live = process.env.OPENAI_API_KEY !== undefined;
const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 18 }),
});

// 1. A structured answer, typed from the schema: object is { city: string; tempC: number } | undefined.
const Answer = z.object({ city: z.string(), tempC: z.number() });
const model = live
  ? openai('gpt-4o-mini')
  : scriptedModel([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: '{"city":"Oslo","tempC":18}' },
    ]);
const agent = new Agent({ model, tools: [getWeather] });
const { object } = await agent.chat('Weather in Oslo?', {
  system: 'Answer as JSON.',
  toolChoice: { name: 'get_weather' },
  output: Answer,
});
console.log(`object: ${object?.city} ${object?.tempC} °C`);

// 2. A budget that ends the run gracefully: the step's tools run, then finishReason says why.
const looping = live
  ? model
  : scriptedModel([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] }], { loop: true });
const stopped = await new Agent({ model: looping, tools: [getWeather] }).chat(
  'Check Rome until it is warm.',
  {
    maxSteps: 2,
    onLimit: 'stop',
  },
);
console.log(`stopped: ${stopped.finishReason} after ${stopped.steps.length} steps`);

// 3. for await over a run's events.
const greeter = live ? model : scriptedModel([{ text: ['Hello ', 'there.'] }]);
let text = '';
for await (const event of eachEvent(new Agent({ model: greeter }).run('Hi'))) {
  if (event.type === 'text-delta') text += event.text;
}
console.log(`streamed: ${text}`);

// 4. A long session on a 2,000-token window: summarised, every message kept in the session.
const small = scriptedModel([{ text: 'Noted, and here is a detailed reply to that. '.repeat(5) }], {
  loop: true,
  contextWindow: 2_000,
});
const summarizer = scriptedModel([{ text: 'The user asked many numbered questions.' }], { loop: true });
const sessions = memorySessionStore();
const chat = new Agent({
  model: small,
  sessions,
  maxOutputTokens: 200,
  context: { strategy: 'summarize', summarizer },
});
for (let i = 1; i <= 30; i++)
  await chat.chat(`Question ${i}: ${'tell me more. '.repeat(10)}`, { sessionId: 'long' });
const session = await sessions.get('long');
console.log(
  `session: ${session?.messages.length} messages kept, ${summarizer.requests.length} summaries written`,
);
