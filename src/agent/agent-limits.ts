import type { AgentOptions } from './agent-options.ts';
import type { Budgets } from './step-budgets.ts';

/** An agent's numeric options, checked, with every default filled in. */
export interface AgentLimits {
  budgets: Budgets;
  concurrency: number;
  stepRetries: number;
  approvalTimeoutMs: number;
  sessionWaitMs: number;
  responseCacheTtlMs: number | undefined;
}

type Bound = 'count' | 'positive-count' | 'duration';

const RULES: Record<Bound, { valid: (value: number) => boolean; says: string }> = {
  count: { valid: (v) => v === Infinity || (Number.isSafeInteger(v) && v >= 0), says: 'a whole number ≥ 0' },
  'positive-count': {
    valid: (v) => v === Infinity || (Number.isSafeInteger(v) && v >= 1),
    says: 'a whole number ≥ 1',
  },
  duration: { valid: (v) => Number.isFinite(v) && v >= 0, says: 'a finite number of milliseconds ≥ 0' },
};

function checked<T extends number | undefined>(name: keyof AgentOptions, value: T, bound: Bound): T {
  const rule = RULES[bound];
  if (value !== undefined && !rule.valid(value))
    throw new RangeError(`${name} must be ${rule.says}, not ${value}`);
  return value;
}

/**
 * The budgets, concurrency, retries and timeouts of `options`, defaults filled in, each checked
 * once when the agent is made: a `toolConcurrency` of 0 would leave every call waiting forever.
 * @throws RangeError naming the option that is out of range
 * @example agentLimits({ model, maxSteps: 5 }).budgets.maxSteps // 5
 */
export function agentLimits(options: AgentOptions): AgentLimits {
  return {
    budgets: {
      maxSteps: checked('maxSteps', options.maxSteps ?? 10, 'positive-count'),
      maxToolCalls: checked('maxToolCalls', options.maxToolCalls ?? Infinity, 'count'),
      maxInvalidToolCalls: checked('maxInvalidToolCalls', options.maxInvalidToolCalls ?? 3, 'count'),
      maxRepeatedToolCalls: checked('maxRepeatedToolCalls', options.maxRepeatedToolCalls ?? 3, 'count'),
    },
    concurrency: checked('toolConcurrency', options.toolConcurrency ?? 4, 'positive-count'),
    stepRetries: checked('stepRetries', options.stepRetries ?? 1, 'count'),
    // Finite by default: a person who never answers must not hold the session's runs forever.
    approvalTimeoutMs: checked('approvalTimeoutMs', options.approvalTimeoutMs ?? 300_000, 'duration'),
    sessionWaitMs: checked('sessionWaitMs', options.sessionWaitMs ?? 600_000, 'duration'),
    responseCacheTtlMs: checked('responseCacheTtlMs', options.responseCacheTtlMs, 'duration'),
  };
}
