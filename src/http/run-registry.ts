import { asyncScheduler, defer, isObservable, type Observable, type SchedulerLike, timer } from 'rxjs';
import type { AgentEvent } from '../agent/agent-event.ts';
import { RunNotFoundError, TooManyRunsError, type ToolCall } from '../core/index.ts';
import { HeldRun, type HeldRunStatus } from './held-run.ts';
import { memoryRunEventStore } from './memory-run-event-store.ts';
import type { ApprovalQuestion } from './run-approvals.ts';
import type { RunEnd, RunEventStore } from './run-event-store.ts';
import { eventId, parseEventId, type SequencedEvent } from './sequenced-event.ts';

/** Options of {@link RunRegistry}. */
export interface RunRegistryOptions {
  /** The newest events kept per run for resuming (for the default memory store). @default 10_000 */
  replayLimit?: number;
  /** A run nobody watches is cancelled after this long. @default 60_000 */
  graceMs?: number;
  /** A finished run stays attachable this long, then is forgotten. @default 300_000 */
  retainMs?: number;
  /** Runs held at once; the oldest finished one is forgotten to make room. @default 1000 */
  maxRuns?: number;
  /** Where events are kept. @default memoryRunEventStore({ replayLimit }) */
  eventStore?: RunEventStore;
  /** Times grace and retention. @default asyncScheduler */
  scheduler?: SchedulerLike;
  /** Makes run ids. @default crypto.randomUUID */
  createId?: () => string;
}

/** What a run's events are made with, when `start` is given a function. */
export interface RunContext {
  runId: string;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  /** Pass as the run's `approve`: it waits for `runs.decide(runId, toolCallId, approved)`. */
  approve: (question: ApprovalQuestion) => Observable<boolean>;
}

/**
 * Runs that outlive their watchers. `start` subscribes to a run once and records its events; any
 * number of clients `attach`, each from where it left off (`lastEventId`): exactly the events after
 * it, then the live ones. A disconnect is not a stop: only `cancel` stops a run (or `graceMs` with
 * nobody attached). A finished run stays attachable for `retainMs`. Approvals are answered with
 * `decide`, from any request.
 * @example
 * const runs = new RunRegistry({ graceMs: 30_000 });
 * const { id } = runs.start(({ approve, signal }) => agent.run(input, { approve, signal }));
 * writeSSE(runs.attach(id, { lastEventId: req.headers['last-event-id'] }), res);
 */
export class RunRegistry {
  readonly #runs = new Map<string, HeldRun>();
  readonly #store: RunEventStore;
  readonly #graceMs: number;
  readonly #retainMs: number;
  readonly #maxRuns: number;
  readonly #scheduler: SchedulerLike;
  readonly #createId: () => string;

  constructor(options: RunRegistryOptions = {}) {
    this.#store = options.eventStore ?? memoryRunEventStore({ replayLimit: options.replayLimit ?? 10_000 });
    this.#graceMs = options.graceMs ?? 60_000;
    this.#retainMs = options.retainMs ?? 300_000;
    this.#maxRuns = options.maxRuns ?? 1000;
    this.#scheduler = options.scheduler ?? asyncScheduler;
    this.#createId = options.createId ?? (() => crypto.randomUUID());
  }

  /**
   * Starts a run: subscribes to its events once and keeps them for attaching.
   * @param events the run's events, or a function making them from the run's id, signal and `approve`
   * @returns the run's id
   * @throws TooManyRunsError when `maxRuns` runs are all still running
   */
  start(events: Observable<AgentEvent> | ((run: RunContext) => Observable<AgentEvent>)): { id: string } {
    this.#makeRoom();
    const id = this.#createId();
    const run = new HeldRun(id);
    this.#runs.set(id, run);
    this.#store.open(id);
    run.subscription.add(run.unwatchedFor(this.#graceMs, this.#scheduler).subscribe(() => this.cancel(id)));
    const source = isObservable(events)
      ? events
      : defer(() => events({ runId: id, signal: run.controller.signal, approve: run.approvals.approve }));
    let seq = 0;
    run.subscription.add(
      source.subscribe({
        next: (event) => {
          if (event.type === 'approval-requested') run.approvals.expect(event.toolCall);
          seq += 1;
          this.#store.append(id, { id: eventId(id, seq), event });
        },
        error: (error: unknown) => this.#finish(run, { type: 'failed', error }),
        complete: () => this.#finish(run, { type: 'completed' }),
      }),
    );
    return { id };
  }

  /**
   * The events of a run after `lastEventId` (all of them without it), then the live ones until it
   * ends. Cold; while subscribed, the run counts as watched.
   * @throws (as an error notification) RunNotFoundError, ReplayExpiredError
   */
  attach(runId: string, options: { lastEventId?: string | undefined } = {}): Observable<SequencedEvent> {
    return defer(() => {
      let afterSeq = 0;
      if (options.lastEventId !== undefined && options.lastEventId !== '') {
        const parsed = parseEventId(options.lastEventId);
        if (parsed?.runId !== runId) throw new RunNotFoundError(runId);
        afterSeq = parsed.seq;
      }
      const run = this.#runs.get(runId);
      const events$ = this.#store.read(runId, afterSeq);
      return run ? run.watched(events$) : events$;
    });
  }

  /**
   * Stops a run: unsubscribes from its events (which aborts the model request and the tools) and
   * ends it for every watcher.
   * @returns whether a running run was stopped
   */
  cancel(runId: string): boolean {
    const run = this.#runs.get(runId);
    if (run?.status !== 'running') return false;
    // Finished first: a source that errors on the abort (as agent.run does) is no longer heard.
    this.#finish(run, { type: 'cancelled' });
    run.controller.abort();
    return true;
  }

  /** The tool calls of a run waiting for a decision (empty for an unknown or finished run). */
  approvals(runId: string): ToolCall[] {
    return this.#runs.get(runId)?.approvals.pending() ?? [];
  }

  /**
   * Answers a run's pending approval.
   * @returns whether that tool call was waiting for a decision
   */
  decide(runId: string, toolCallId: string, approved: boolean): boolean {
    return this.#runs.get(runId)?.approvals.decide(toolCallId, approved) ?? false;
  }

  /** The state of a run, or `undefined` when the registry does not hold it. */
  status(runId: string): HeldRunStatus | undefined {
    return this.#runs.get(runId)?.status;
  }

  /** Cancels every running run and forgets every run. */
  close(): void {
    for (const id of [...this.#runs.keys()]) {
      this.cancel(id);
      this.#forget(id);
    }
  }

  #finish(run: HeldRun, end: RunEnd): void {
    if (run.status !== 'running') return;
    run.end(end.type);
    this.#store.end(run.id, end);
    run.subscription = timer(this.#retainMs, this.#scheduler).subscribe(() => this.#forget(run.id));
  }

  #forget(runId: string): void {
    const run = this.#runs.get(runId);
    if (!run) return;
    run.subscription.unsubscribe();
    this.#runs.delete(runId);
    this.#store.delete(runId);
  }

  #makeRoom(): void {
    if (this.#runs.size < this.#maxRuns) return;
    const finished = [...this.#runs.values()].find((run) => run.status !== 'running');
    if (!finished) throw new TooManyRunsError(this.#maxRuns);
    this.#forget(finished.id);
  }
}
