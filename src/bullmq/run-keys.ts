/**
 * The keys rxagent keeps beside a BullMQ queue's own (`<prefix>:<queue>:…`), under
 * `<prefix>:<queue>:rxagent:`: one hash per run, one FIFO list per session, the set of agent names
 * workers announced, and the channel cancels are published on.
 */
export interface RunKeys {
  /** The run's record: agent, session, owner, status, and its cancel and wake flags. */
  run(runId: string): string;
  /** The runs of a session not yet ended, oldest first: the head is the one that may run. */
  session(sessionId: string): string;
  /** The id of the actor whose run made the session ('' for none): only its runs may use it. */
  sessionOwner(sessionId: string): string;
  /** The agent names workers run (`work({ name: agent })`). */
  readonly agents: string;
  /** Where `cancel` tells every worker which run to stop (the message is the run id). */
  readonly cancels: string;
  /** BullMQ's hash of the run's job (a run's job id is its run id). */
  job(runId: string): string;
  /** BullMQ's lock on the run's job: present while a worker holds it. */
  lock(runId: string): string;
}

/** The keys of the runs on queue `queueName` under BullMQ's `prefix`. */
export function runKeys(prefix: string, queueName: string): RunKeys {
  const base = `${prefix}:${queueName}:rxagent`;
  return {
    run: (runId) => `${base}:run:${runId}`,
    session: (sessionId) => `${base}:session:${sessionId}`,
    sessionOwner: (sessionId) => `${base}:session-owner:${sessionId}`,
    agents: `${base}:agents`,
    cancels: `${base}:cancels`,
    job: (runId) => `${prefix}:${queueName}:${runId}`,
    lock: (runId) => `${prefix}:${queueName}:${runId}:lock`,
  };
}
