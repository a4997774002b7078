import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  EMPTY,
  first,
  from,
  isObservable,
  lastValueFrom,
  map,
  NEVER,
  type Observable,
  of,
  repeat,
  type SchedulerLike,
  switchMap,
  timer,
} from 'rxjs';
import type { AgentEvent } from '../agent/agent-event.ts';
import { ApprovalNotPendingError, RunNotFoundError, TooManyRunsError, type ToolCall } from '../core/index.ts';
import type { Actor } from '../security/actor.ts';
import { HeldRun } from './held-run.ts';
import { memoryRunEventStore } from './memory-run-event-store.ts';
import type { ApprovalQuestion } from './run-approvals.ts';
import { RemoteRuns } from './remote-runs.ts';
import { type RunAction, type RunAuthorize, sameActor, whenAuthorized } from './run-authorize.ts';
import type { RunCommand } from './run-control.ts';
import type { RunEnd, RunEventStore } from './run-event-store.ts';
import { type ResumableEvents, resumableEvents } from './resumable-events.ts';
import type { RunDecision, Runs, RunStatus } from './runs.ts';
import { eventId, parseEventId } from './sequenced-event.ts';

/** Options of {@link RunRegistry}. */
export interface RunRegistryOptions {
  /** The newest events kept per run for resuming (for the default memory store). @default 10_000 */
  replayLimit?: number;
  /** A run nobody watches (on any server sharing the store) is cancelled after this long. @default 60_000 */
  graceMs?: number;
  /** A finished run stays attachable this long, then is forgotten. @default 300_000 */
  retainMs?: number;
  /** Runs held at once; the oldest finished one is forgotten to make room. @default 1000 */
  maxRuns?: number;
  /**
   * Runs one actor may have running at once: on every server sharing the store when its `control`
   * counts them (`redisRunEventStore`), else on this registry. @default 20
   */
  maxRunsPerActor?: number;
  /**
   * The bytes of events the store may hold in this process; above it the oldest finished runs are
   * forgotten first (one run's own bound is the store's `maxRunBytes`). @default 268_435_456 (256 MiB)
   */
  maxBytes?: number;
  /** Who may attach to, cancel or decide on a run. @default sameActor */
  authorize?: RunAuthorize;
  /** Where events are kept. @default memoryRunEventStore({ replayLimit }) */
  eventStore?: RunEventStore;
  /** Times grace and retention. @default asyncScheduler */
  scheduler?: SchedulerLike;
  /** Makes run ids; they must be unguessable. @default crypto.randomUUID */
  createId?: () => string;
}

/** What a run's events are made with, when `start` is given a function. */
export interface RunContext {
  runId: string;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  /** Pass as the run's `approve`: it waits for `runs.decide(runId, toolCallId, decision)`. */
  approve: (question: ApprovalQuestion) => Observable<boolean>;
}

/**
 * Runs that outlive their watchers, the `Runs` of one process or of several app servers sharing a
 * store with `control` (`redisRunEventStore`). `start` subscribes to a run once and records its
 * events; any number of clients `attach`, on any server, each from where it left off
 * (`lastEventId`). A disconnect is not a stop: only `cancel` stops a run (or `graceMs` with nobody
 * attached anywhere). A run belongs to the actor that started it: `authorize` guards attach,
 * cancel and decide. A finished run stays attachable for `retainMs`.
 * @example
 * const runs = new RunRegistry({ graceMs: 30_000 });
 * const { id } = runs.start(({ approve, signal }) => agent.run(input, { approve, signal }), { actor });
 * writeSSE(runs.attach(id, { lastEventId: req.headers['last-event-id'], actor }), res);
 */
export class RunRegistry implements Runs {
  readonly #runs = new Map<string, HeldRun>();
  readonly #store: RunEventStore;
  readonly #graceMs: number;
  readonly #retainMs: number;
  readonly #maxRuns: number;
  readonly #maxRunsPerActor: number;
  readonly #maxBytes: number;
  readonly #authorize: RunAuthorize;
  readonly #scheduler: SchedulerLike;
  readonly #createId: () => string;
  readonly #remote: RemoteRuns;

  constructor(options: RunRegistryOptions = {}) {
    this.#store = options.eventStore ?? memoryRunEventStore({ replayLimit: options.replayLimit ?? 10_000 });
    this.#graceMs = options.graceMs ?? 60_000;
    this.#retainMs = options.retainMs ?? 300_000;
    this.#maxRuns = options.maxRuns ?? 1000;
    this.#maxRunsPerActor = options.maxRunsPerActor ?? 20;
    this.#maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
    this.#authorize = options.authorize ?? sameActor;
    this.#scheduler = options.scheduler ?? asyncScheduler;
    this.#createId = options.createId ?? (() => crypto.randomUUID());
    this.#remote = new RemoteRuns(this.#store.control, this.#authorize);
  }

  /** How long a run nobody watches (a paused one included) lives on: its `graceMs`. */
  get graceMs(): number {
    return this.#graceMs;
  }

  /**
   * Starts a run: subscribes to its events once and keeps them for attaching. With a store whose
   * `control` counts an actor's runs across servers, the run's events are subscribed to once that
   * count admits it; a run over the limit fails with `TooManyRunsError` (use `admit` to be refused
   * before a run exists).
   * @param events the run's events, or a function making them from the run's id, signal and `approve`
   * @param options `actor`: the run's owner
   * @returns the run's id
   * @throws TooManyRunsError when `maxRuns` runs are all still running, or the actor has `maxRunsPerActor` here
   */
  start(
    events: Observable<AgentEvent> | ((run: RunContext) => Observable<AgentEvent>),
    options: { actor?: Actor | undefined } = {},
  ): { id: string } {
    const owner = options.actor?.id;
    this.#limitHere(owner);
    const id = this.#createId();
    return this.#begin(id, owner, events, owner === undefined ? undefined : this.#admitted(id, owner));
  }

  /**
   * Starts a run as `start` does, once the actor's count of running runs admits it: on every server
   * sharing the store when its `control` counts them (atomically), else on this registry. When the
   * store cannot be reached, only this registry's count applies.
   * @returns the run's id
   * @throws (as a rejection) TooManyRunsError when `maxRuns` runs are all still running, or the actor has `maxRunsPerActor`
   */
  async admit(
    events: Observable<AgentEvent> | ((run: RunContext) => Observable<AgentEvent>),
    options: { actor?: Actor | undefined } = {},
  ): Promise<{ id: string }> {
    const owner = options.actor?.id;
    this.#limitHere(owner);
    this.#makeRoom();
    const id = this.#createId();
    if (owner !== undefined && !(await this.#admitted(id, owner)))
      throw new TooManyRunsError(this.#maxRunsPerActor);
    try {
      return this.#begin(id, owner, events, undefined);
    } catch (error) {
      // Refused here after the store counted it (maxRuns filled meanwhile): it no longer counts.
      this.#store.delete(id);
      throw error;
    }
  }

  /** Throws when the actor already has `maxRunsPerActor` running in this registry. */
  #limitHere(owner: string | undefined): void {
    if (owner === undefined) return;
    const running = [...this.#runs.values()].filter((r) => r.owner === owner && r.status === 'running');
    if (running.length >= this.#maxRunsPerActor) throw new TooManyRunsError(this.#maxRunsPerActor);
  }

  /** Whether the store's count of the actor's runs on every server admits one more (true without one, or when it fails). */
  async #admitted(runId: string, owner: string): Promise<boolean> {
    const admit = this.#store.control?.admit;
    if (!admit) return true;
    return admit.call(this.#store.control, runId, owner, this.#maxRunsPerActor).catch(() => true);
  }

  /** Holds a new run; its events are subscribed to once `admitted` (when given) resolves true. */
  #begin(
    id: string,
    owner: string | undefined,
    events: Observable<AgentEvent> | ((run: RunContext) => Observable<AgentEvent>),
    admitted: Promise<boolean> | undefined,
  ): { id: string } {
    this.#makeRoom();
    const run = new HeldRun(id, owner);
    this.#runs.set(id, run);
    this.#store.open(id, { owner });
    this.#publish(run);
    run.subscription.add(this.#unwatched(run).subscribe(() => this.#cancel(run)));
    const control = this.#store.control;
    if (control) run.subscription.add(control.commands(id).subscribe((command) => this.#obey(run, command)));
    const made = isObservable(events)
      ? events
      : defer(() => events({ runId: id, signal: run.controller.signal, approve: run.approvals.approve }));
    const source = admitted
      ? from(admitted).pipe(
          switchMap((ok) => {
            if (!ok) throw new TooManyRunsError(this.#maxRunsPerActor);
            return made;
          }),
        )
      : made;
    let seq = 0;
    run.subscription.add(
      source.subscribe({
        next: (event) => {
          if (event.type === 'approval-requested') run.approvals.expect(event.toolCall);
          seq += 1;
          this.#store.append(id, { id: eventId(id, seq), event });
          this.#publish(run);
          this.#trimBytes();
        },
        error: (error: unknown) => this.#finish(run, { type: 'failed', error }),
        complete: () => this.#finish(run, { type: 'completed' }),
      }),
    );
    return { id };
  }

  /**
   * The events of a run after `lastEventId` (all of them without it), then the live ones until it
   * ends. Cold; while subscribed, the run counts as watched (on any server sharing the store).
   * `resumeAfter(id)` reads the same run after another event id (`writeSSE` paces with it).
   * @throws (as an error notification) RunNotFoundError (also for a run `actor` may not attach to), ReplayExpiredError
   */
  attach(
    runId: string,
    options: { lastEventId?: string | undefined; actor?: Actor | undefined } = {},
  ): ResumableEvents {
    return resumableEvents(
      (lastEventId = options.lastEventId) =>
        defer(() => {
          const afterSeq = afterSeqOf(runId, lastEventId);
          return this.#allowed(runId, options.actor, 'attach').pipe(
            switchMap((run) => {
              const events$ = this.#store.read(runId, afterSeq);
              return run ? run.watched(events$) : events$;
            }),
          );
        }),
      // A paced reader between reads: still watching (here, or through the store elsewhere), once
      // allowed to (another actor's client must not keep a run it cannot read alive).
      defer(() => this.#allowed(runId, options.actor, 'attach')).pipe(
        switchMap((run) => (run ? run.watched(NEVER) : (this.#store.watch?.(runId) ?? NEVER))),
        catchError(() => EMPTY),
      ),
    );
  }

  /**
   * Whether `attach` with these options would start, before a server sends its headers: a route
   * awaits it to answer 404 (`RunNotFoundError`) or 410 (`ReplayExpiredError`) rather than a 200
   * stream that fails at once.
   * @throws RunNotFoundError, ReplayExpiredError (as a rejection)
   */
  async check(
    runId: string,
    options: { lastEventId?: string | undefined; actor?: Actor | undefined } = {},
  ): Promise<void> {
    const afterSeq = afterSeqOf(runId, options.lastEventId);
    await lastValueFrom(this.#allowed(runId, options.actor, 'attach'), { defaultValue: undefined });
    await this.#store.check?.(runId, afterSeq);
  }

  /**
   * Stops a run, on whichever server runs it: unsubscribes from its events (which aborts the model
   * request and the tools) and ends it for every watcher.
   * @returns whether a run that had not ended was stopped (false for an unknown or foreign run)
   */
  cancel(runId: string, options: { actor?: Actor | undefined } = {}): Promise<boolean> {
    const run = this.#runs.get(runId);
    if (!run) return this.#remote.cancel(runId, options.actor);
    const resource = { type: 'run' as const, id: runId, owner: run.owner };
    return whenAuthorized(
      this.#authorize,
      options.actor,
      resource,
      'cancel',
      (ok) => ok && this.#cancel(run),
    );
  }

  /**
   * Answers a run's pending approval, on whichever server runs it (`reason` is not passed on: an
   * approver answers with a boolean).
   * @throws RunNotFoundError for an unknown or foreign run; ApprovalNotPendingError when that call waits for nothing
   */
  decide(
    runId: string,
    toolCallId: string,
    decision: RunDecision,
    options: { actor?: Actor | undefined } = {},
  ): Promise<void> {
    const run = this.#runs.get(runId);
    if (!run) return this.#remote.decide(runId, toolCallId, decision.approved, options.actor);
    const resource = { type: 'run' as const, id: runId, owner: run.owner };
    return whenAuthorized(this.#authorize, options.actor, resource, 'decide', (ok) => {
      if (!ok) throw new RunNotFoundError(runId);
      if (!this.#decide(run, toolCallId, decision.approved))
        throw new ApprovalNotPendingError(runId, toolCallId);
    });
  }

  /** Where a run is, on whichever server runs it, or `null` for a run no server knows. */
  status(runId: string): Promise<RunStatus | null> {
    const held = this.statusHere(runId);
    return held ? Promise.resolve(held) : this.#remote.status(runId);
  }

  /** Where a run this registry holds is, at once; `undefined` for a run it does not hold. */
  statusHere(runId: string): RunStatus | undefined {
    return this.#runs.get(runId)?.runStatus;
  }

  /** The tool calls of a run held here waiting for a decision (empty for an unknown or finished run). */
  approvals(runId: string): ToolCall[] {
    return this.#runs.get(runId)?.approvals.pending() ?? [];
  }

  /** Cancels every running run and forgets every run. */
  close(): void {
    for (const run of [...this.#runs.values()]) {
      this.#cancel(run);
      this.#forget(run.id);
    }
  }

  /** The run held here (or `undefined` for one another server runs), once `actor` may `action` it. */
  #allowed(runId: string, actor: Actor | undefined, action: RunAction): Observable<HeldRun | undefined> {
    const run = this.#runs.get(runId);
    return (run ? of(run.owner) : this.#remote.owner$(runId)).pipe(
      concatMap((owner) => {
        const answer = this.#authorize(actor, { type: 'run', id: runId, owner }, action);
        return typeof answer === 'boolean' ? of(answer) : from(answer);
      }),
      map((ok) => {
        if (!ok) throw new RunNotFoundError(runId);
        return run;
      }),
    );
  }

  /** Emits once nobody has watched the run for `graceMs`, here or (per the store) elsewhere. */
  #unwatched(run: HeldRun): Observable<unknown> {
    return run.unwatchedFor(this.#graceMs, this.#scheduler).pipe(
      concatMap(() => this.#remote.watched$(run.id)),
      repeat(),
      first((watched) => !watched),
    );
  }

  #obey(run: HeldRun, command: RunCommand): void {
    switch (command.type) {
      case 'cancel':
        this.#cancel(run);
        return;
      case 'decide':
        this.#decide(run, command.toolCallId, command.approved);
        return;
      default:
        command satisfies never;
    }
  }

  /** Answers an approval, from here or another server, and tells every server it is no longer pending. */
  #decide(run: HeldRun, toolCallId: string, approved: boolean): boolean {
    if (!run.approvals.decide(toolCallId, approved)) return false;
    this.#publish(run);
    return true;
  }

  #cancel(run: HeldRun): boolean {
    if (run.status !== 'running') return false;
    // Finished first: a source that errors on the abort (as agent.run does) is no longer heard.
    this.#finish(run, { type: 'cancelled' });
    run.controller.abort();
    return true;
  }

  /** Tells the other servers the run's state, when it changed. */
  #publish(run: HeldRun): void {
    const control = this.#store.control;
    if (!control) return;
    const pending = run.approvals.pending().map((call) => call.id);
    const state = {
      status: run.runStatus,
      pending,
      ...(run.owner === undefined ? {} : { owner: run.owner }),
    };
    const key = JSON.stringify(state);
    if (key === run.published) return;
    run.published = key;
    control.setState(run.id, state);
  }

  #finish(run: HeldRun, end: RunEnd): void {
    if (run.status !== 'running') return;
    run.end(end.type);
    this.#publish(run);
    this.#store.end(run.id, end);
    run.subscription = timer(this.#retainMs, this.#scheduler).subscribe(() => this.#forget(run.id));
    this.#trimBytes();
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

  /** Forgets the oldest finished runs while the store holds more than `maxBytes`. */
  #trimBytes(): void {
    const held = this.#store.heldBytes;
    if (!held) return;
    for (const run of this.#runs.values()) {
      if (held.call(this.#store) <= this.#maxBytes) return;
      if (run.status !== 'running') this.#forget(run.id);
    }
  }
}

/** The number of the last event a client has, from its `Last-Event-ID` (0 without one). */
function afterSeqOf(runId: string, lastEventId: string | undefined): number {
  if (lastEventId === undefined || lastEventId === '') return 0;
  const parsed = parseEventId(lastEventId);
  // Another run's id, or no event id at all: nothing of this run can follow it.
  // Named by what the client sent (it names no event of this run), said plainly.
  if (parsed === undefined)
    throw new RunNotFoundError(
      lastEventId,
      `Last-Event-ID ${JSON.stringify(lastEventId)} is not an event id (<run id>:<number>) of run ${runId}`,
    );
  if (parsed.runId !== runId)
    throw new RunNotFoundError(
      parsed.runId,
      `Last-Event-ID ${lastEventId} is an event of another run, not of run ${runId}`,
    );
  return parsed.seq;
}
