/**
 * Testing your own code against a scripted model: deterministic, offline, and it records every
 * request your code sent, so you can assert on both sides.
 *
 *   npx node --conditions=rxagent-source examples/testing.ts
 */
import assert from 'node:assert/strict';
import type { ChatModel } from 'rxagent';
import { scriptedModel } from 'rxagent/testing';

/** The code under test: asks for a one-line title and trims what comes back. */
async function titleFor(model: ChatModel, text: string): Promise<string> {
  const response = await model.complete({
    system: 'Reply with a title of at most six words.',
    messages: text,
  });
  return response.text.trim();
}

const model = scriptedModel([{ text: ['  Streams ', 'beat ', 'waiting  '] }]);
const title = await titleFor(model, 'A long article about streaming replies…');

assert.equal(title, 'Streams beat waiting');
assert.equal(model.requests.length, 1);
assert.equal(model.requests[0]?.system, 'Reply with a title of at most six words.');
console.log(`ok: "${title}" from ${model.requests.length} scripted turn`);
