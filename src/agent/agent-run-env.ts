import type { RunOptions } from './agent-options.ts';
import type { RunEnv } from './run-agent.ts';

type RunEnvMaker = (options: RunOptions) => RunEnv;

// Each agent's own way to make a run's environment, for the durable driver that runs its loop:
// kept here rather than as a public method, so it is no part of `Agent`'s API.
const makers = new WeakMap<object, RunEnvMaker>();

/** Called by `Agent`'s constructor. */
export function registerRunEnv(agent: object, make: RunEnvMaker): void {
  makers.set(agent, make);
}

/** The run environment `agent.run(input, options)` would use. @throws TypeError for an object that is not an `Agent` */
export function agentRunEnv(agent: object, options: RunOptions): RunEnv {
  const make = makers.get(agent);
  if (!make) throw new TypeError('Not an Agent');
  return make(options);
}
