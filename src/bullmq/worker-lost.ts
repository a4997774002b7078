import type { Redis } from 'ioredis';
import { concatMap, filter, map, type Observable, scan, timer } from 'rxjs';
import { RunLostError } from '../core/index.ts';

/** Where a watcher looks for a run's worker: the run's record and BullMQ's lock on its job. */
export interface WorkerProbe {
  client: Redis;
  /** The run's record (its `status` field). */
  runKey: string;
  /** BullMQ's lock on the run's job (`<prefix>:<queue>:<jobId>:lock`): present while a worker holds it. */
  lockKey: string;
}

/**
 * Fails with `RunLostError('writer_gone')` once a run marked `running` has had no worker holding
 * its job (no BullMQ lock) for `lostMs` as seen from here: its worker died and no other took it
 * over. A queued run (waiting for a worker or its session's turn) or a parked one is not lost. It
 * never emits; a watcher ends with it. The run itself stays on the queue: a worker that comes back
 * resumes it, and a later `attach` watches it again.
 */
export function workerLost(runId: string, probe: WorkerProbe, lostMs: number): Observable<never> {
  const everyMs = Math.max(50, Math.min(5_000, Math.floor(lostMs / 4)));
  return timer(0, everyMs).pipe(
    concatMap(async () => {
      const [status, locked] = await Promise.all([
        probe.client.hget(probe.runKey, 'status'),
        probe.client.exists(probe.lockKey),
      ]);
      return status !== 'running' || locked === 1;
    }),
    // When a worker was last seen holding the run (or the run was not running): from the first look.
    scan((seen: number, alive: boolean) => (alive ? Date.now() : seen), Date.now()),
    filter((seen) => Date.now() - seen >= lostMs),
    map(() => {
      throw new RunLostError(runId, 'writer_gone');
    }),
  );
}
