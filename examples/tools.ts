/**
 * Tools: strict validation, a security policy, per-actor authorization and a verified audit log.
 * A scripted model (offline) first calls the tool with a wrong argument type, reads the validation
 * outcome, corrects itself, and answers from the result.
 *
 *   npx node --conditions=rxagent-source examples/tools.ts
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defineTool,
  fileAuditStore,
  type Message,
  memoryRateLimiter,
  SecurityPolicy,
  ToolRegistry,
  toolMessage,
  user,
  verifyAuditLog,
} from 'rxagent';
import { scriptedModel } from 'rxagent/testing';
import { z } from 'zod';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string().min(1) }),
  authorize: (actor) => actor?.roles?.includes('staff') === true,
  execute: async ({ city }) => ({ city, tempC: 18, sky: 'clear' }),
});

const auditPath = join(await mkdtemp(join(tmpdir(), 'rxagent-')), 'audit.jsonl');
const tools = new ToolRegistry({
  policy: new SecurityPolicy({
    deny: ['shell'],
    rateLimiter: memoryRateLimiter({ limit: 60, windowMs: 60_000 }),
  }),
  audit: fileAuditStore({ path: auditPath }),
}).register(getWeather);

// What a model would do: a call with the wrong type, a corrected call, then the answer.
const model = scriptedModel([
  { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 42 } }] },
  { toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: { city: 'Oslo' } }] },
  { text: ['It is 18 °C ', 'and clear in Oslo.'] },
]);

const actor = { id: 'u-123', roles: ['staff'] };
const messages: Message[] = [user('What is the weather in Oslo?')];
for (let step = 1; ; step++) {
  const response = await model.complete({ messages, tools: tools.definitions() });
  messages.push(response.message);
  if (response.toolCalls.length === 0) {
    console.log(`step ${step}: ${response.text}`);
    break;
  }
  const outcomes = await tools.invokeAll(response.toolCalls, { actor });
  for (const outcome of outcomes) {
    console.log(`step ${step}: ${outcome.name} → ${outcome.status}: ${outcome.content}`);
    messages.push(toolMessage(outcome.toolCallId, outcome.content));
  }
}

// A caller without the staff role is refused before the tool runs.
const denied = await tools.invoke(
  { id: 'call_3', name: 'get_weather', arguments: { city: 'Oslo' } },
  { actor: { id: 'guest' } },
);
console.log(`guest → ${denied.status}: ${denied.content}`);

const verification = await verifyAuditLog(auditPath);
console.log(`audit log: ${verification.entries} entries, chain ${verification.ok ? 'intact' : 'BROKEN'}`);
