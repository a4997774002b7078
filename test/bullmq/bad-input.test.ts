import { durableRuns } from '../../src/bullmq/index.ts';
import { memoryRunEventStore } from '../../src/http/index.ts';
import { memorySessionStore } from '../../src/sessions/index.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentInput } from '../../src/agent/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { InvalidRequestError, InvalidSessionIdError } from '../../src/core/index.ts';
import { type DurableSetup, durableSetup, withQueue } from './support/durable-setup.ts';

let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

/** Everything the test's queue and rxagent's keys hold. */
async function leftovers(s: DurableSetup) {
  return withQueue(s, async (queue) => {
    const counts = await queue.getJobCounts();
    const keys = await s.redis.keys(`${s.config.prefix}:${s.config.queueName}:rxagent:*`);
    const runKeys = await s.redis.keys(`${s.config.prefix}:run:*`);
    return { jobs: Object.values(counts).reduce((a, b) => a + b, 0), keys: [...keys, ...runKeys] };
  });
}

describe('durableRuns.start refuses bad input with a typed error, enqueuing nothing', () => {
  const cases: [string, (s: DurableSetup) => Promise<unknown>, (error: unknown) => boolean][] = [
    [
      'an agent no worker runs',
      (s) => s.runs.start('nobody', 'Hi'),
      (e) => InvalidRequestError.is(e) && e.option === 'agent',
    ],
    [
      'an agent name that is not a string',
      (s) => s.runs.start(42 as unknown as string, 'Hi'),
      (e) => InvalidRequestError.is(e) && e.option === 'agent',
    ],
    [
      'a session id with a slash',
      (s) => s.runs.start('chat', 'Hi', { sessionId: '../etc' }),
      (e) => InvalidSessionIdError.is(e),
    ],
    [
      'an empty session id',
      (s) => s.runs.start('chat', 'Hi', { sessionId: '' }),
      (e) => InvalidSessionIdError.is(e),
    ],
    [
      'input that is a number',
      (s) => s.runs.start('chat', 7 as unknown as AgentInput),
      (e) => InvalidRequestError.is(e) && e.option === 'input',
    ],
    [
      'no messages',
      (s) => s.runs.start('chat', []),
      (e) => InvalidRequestError.is(e) && e.option === 'input',
    ],
    [
      'a message with an unknown role',
      (s) => s.runs.start('chat', [{ role: 'wizard', content: 'x' } as never]),
      (e) => InvalidRequestError.is(e) && e.option === 'input',
    ],
    [
      'maxSteps of 0',
      (s) => s.runs.start('chat', 'Hi', { maxSteps: 0 }),
      (e) => InvalidRequestError.is(e) && e.option === 'maxSteps',
    ],
    [
      'an unknown onLimit',
      (s) => s.runs.start('chat', 'Hi', { onLimit: 'explode' as never }),
      (e) => InvalidRequestError.is(e) && e.option === 'onLimit',
    ],
    [
      'an actor whose id is empty (it would read as no owner: open to anyone)',
      (s) => s.runs.start('chat', 'Hi', { actor: { id: '' } }),
      (e) => InvalidRequestError.is(e) && e.option === 'actor',
    ],
    [
      'an actor without an id',
      (s) => s.runs.start('chat', 'Hi', { actor: {} as never }),
      (e) => InvalidRequestError.is(e) && e.option === 'actor',
    ],
  ];
  for (const [name, start, typed] of cases) {
    it(`refuses ${name}`, async () => {
      setup = durableSetup('http://127.0.0.1:9/v1', { agents: ['chat'] });
      const error = await start(setup).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(typed(error), String(error)).toBe(true);
      expect(await leftovers(setup)).toEqual({ jobs: 0, keys: [] });
    });
  }

  it('accepts, without an `agents` list, only the names a worker announced', async () => {
    setup = durableSetup('http://127.0.0.1:9/v1');
    const refused = await setup.runs.start('chat', 'Hi').catch((e: unknown) => e);
    expect(InvalidRequestError.is(refused)).toBe(true);
    expect(await leftovers(setup)).toEqual({ jobs: 0, keys: [] });
  });
});

describe('durableRuns.work refuses an agent it could not run durably', () => {
  it('an agent without sessions: a typed error at once, not a run that fails after five attempts', async () => {
    setup = durableSetup('http://127.0.0.1:9/v1');
    const agent = new Agent({
      model: openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' }),
    });
    let error: unknown;
    try {
      setup.runs.work({ chat: agent });
    } catch (e) {
      error = e;
    }
    expect(InvalidRequestError.is(error) && error.option === 'agents').toBe(true);
    // Nothing announced: start still refuses the name.
    expect(InvalidRequestError.is(await setup.runs.start('chat', 'Hi').catch((e: unknown) => e))).toBe(true);
  });
});

describe('durableRuns refuses timings it could not keep, before it opens anything', () => {
  for (const [option, value] of [
    ['approvalTimeoutMs', Number.POSITIVE_INFINITY],
    ['approvalTimeoutMs', 100 * 365 * 86_400_000],
    ['approvalTimeoutMs', 0],
    ['lockMs', Number.NaN],
    ['retainMs', -1],
    ['workerLostMs', 1.5],
    ['maxRunsPerSession', 0],
    ['maxIdleAttempts', 0],
  ] as const)
    it(`${option}: ${value}`, () => {
      let error: unknown;
      try {
        durableRuns({
          connection: { host: '127.0.0.1', port: 6379, lazyConnect: true },
          sessions: memorySessionStore(),
          events: memoryRunEventStore(),
          [option]: value,
        });
      } catch (e) {
        error = e;
      }
      expect(InvalidRequestError.is(error) && error.option === option).toBe(true);
    });
});
