import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type AgentEvent, RxAgentError, textDeltas } from '../../../src/index.ts';

const lost = new RxAgentError('The worker running this step stopped', 'worker_lost');
const text = (value: string): AgentEvent => ({ type: 'text-delta', text: value });
const shown = async (events: AgentEvent[]) =>
  (await lastValueFrom(from(events).pipe(textDeltas(), toArray()))).join('|');

describe('textDeltas over a durable run resumed on another worker', () => {
  it('withholds the repeat of a step restarted after its start was told', async () => {
    expect(
      await shown([
        { type: 'step-started', step: 2 },
        text('The '),
        text('cha'),
        { type: 'step-restarted', step: 2, error: lost },
        text('The '),
        text('charge '),
        text('went.'),
      ]),
    ).toBe('The |cha|rge |went.');
  });

  it('shows a step whole when it restarts without its start told (the worker died before)', async () => {
    // Step 1's text ends with what step 2 begins with: nothing of step 2 may be taken for a repeat.
    expect(
      await shown([
        { type: 'step-started', step: 1 },
        text('The charge'),
        { type: 'step-restarted', step: 2, error: lost },
        text('The charge '),
        text('went.'),
      ]),
    ).toBe('The charge|The charge |went.');
  });

  it('a watcher that joined inside a step treats a restart as a repeat of what it saw', async () => {
    expect(await shown([text('Hel'), { type: 'step-restarted', step: 3, error: lost }, text('Hello')])).toBe(
      'Hel|lo',
    );
  });
});
