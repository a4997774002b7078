import { type Cost, emptyUsage, type Usage } from '../core/index.ts';
import type { AgentResult } from './agent-event.ts';
import type { RunLimit, RunState } from './run-state.ts';

/** The sum of two usages; optional counts are kept when either has them. */
export function addUsage(total: Usage, usage: Usage): Usage {
  const sum: Usage = {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    totalTokens: total.totalTokens + usage.totalTokens,
  };
  for (const key of ['cachedInputTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    const value = (total[key] ?? 0) + (usage[key] ?? 0);
    if (total[key] !== undefined || usage[key] !== undefined) sum[key] = value;
  }
  return sum;
}

/** The result of a finished run: the last step's text, the run's messages, usage and cost summed (summaries included). */
export function agentResult(state: RunState, sessionId: string | undefined, limit?: RunLimit): AgentResult {
  const last = state.steps.at(-1);
  const calls = [...state.steps, ...state.overhead];
  const usage = calls.reduce(
    (total, step) => (step.usage ? addUsage(total, step.usage) : total),
    emptyUsage(),
  );
  const costs = calls.map((step) => step.cost);
  const cost = costs.every((c): c is Cost => c !== undefined)
    ? costs.reduce<Cost>(
        (total, c) => ({
          inputUsd: total.inputUsd + c.inputUsd,
          outputUsd: total.outputUsd + c.outputUsd,
          totalUsd: total.totalUsd + c.totalUsd,
        }),
        { inputUsd: 0, outputUsd: 0, totalUsd: 0 },
      )
    : undefined;
  return {
    text: last?.text ?? '',
    messages: [...state.added],
    steps: [...state.steps],
    usage,
    ...(cost && costs.length > 0 ? { cost } : {}),
    ...(last?.object === undefined ? {} : { object: last.object }),
    finishReason: limit ?? last?.finishReason ?? 'other',
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}
