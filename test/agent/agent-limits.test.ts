import { describe, expect, it } from 'vitest';
import { Agent, type AgentOptions } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

const model = scriptedModel([{ text: 'hi' }]);

describe('the numeric options of an agent', () => {
  it.each<[keyof AgentOptions, number]>([
    ['toolConcurrency', 0], // would leave every call of a step waiting forever
    ['toolConcurrency', 1.5],
    ['maxSteps', 0],
    ['maxSteps', Number.NaN],
    ['maxToolCalls', -1],
    ['maxInvalidToolCalls', -1],
    ['maxRepeatedToolCalls', 2.5],
    ['stepRetries', -1],
    ['approvalTimeoutMs', -5],
    ['responseCacheTtlMs', Number.NaN],
  ])('%s: %s is refused with a RangeError naming the option', (option, value) => {
    expect(() => new Agent({ model, [option]: value })).toThrow(RangeError);
    expect(() => new Agent({ model, [option]: value })).toThrow(option);
  });

  it('zero where zero means something, and Infinity for the counts, are accepted', () => {
    expect(
      () =>
        new Agent({
          model,
          maxToolCalls: 0,
          maxInvalidToolCalls: 0,
          maxRepeatedToolCalls: Infinity,
          stepRetries: 0,
          toolConcurrency: Infinity,
          approvalTimeoutMs: 0,
        }),
    ).not.toThrow();
  });
});
