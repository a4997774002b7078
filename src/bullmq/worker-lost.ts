import { concatMap, filter, map, type Observable, scan, timer } from 'rxjs';
import { RunLostError } from '../core/index.ts';

/**
 * Fails with `RunLostError('writer_gone')` once `held` has answered no for `lostMs` (from the
 * first look): a run marked running that no worker holds (its worker died and no other took it
 * over), or a run that is gone. Never emits; a watcher ends with it. The run itself stays on the
 * queue: a worker that comes back resumes it, and a later `attach` watches it again.
 * @param held whether a worker holds the run, or nothing should (queued, parked, ended)
 */
export function workerLost(runId: string, held: () => Promise<boolean>, lostMs: number): Observable<never> {
  const everyMs = Math.max(50, Math.min(5_000, Math.floor(lostMs / 4)));
  return timer(0, everyMs).pipe(
    concatMap(held),
    // When the run was last seen held (or not needing a worker): from the first look.
    scan((seen: number, ok: boolean) => (ok ? Date.now() : seen), Date.now()),
    filter((seen) => Date.now() - seen >= lostMs),
    map(() => {
      throw new RunLostError(runId, 'writer_gone');
    }),
  );
}
