/** Which call a front end's tool result answers: its thread, the actor that sent it, and the call's id. */
export interface AgUiFrontendCall {
  threadId: string;
  /** The id of the actor (none without actors). */
  actor: string | undefined;
  toolCallId: string;
}

/** Options of {@link AgUiFrontendResults}. */
export interface AgUiFrontendResultsOptions {
  /** Results held at once; the oldest is dropped first. @default 10_000 */
  max?: number;
  /** How long a result waits for its call to read it. @default 60_000 */
  ttlMs?: number;
  /** The clock. @default Date.now */
  now?: () => number;
}

/**
 * The results front ends sent for their tools' calls, held from the request that carries one
 * until the paused run's call reads it (at once, normally). Keyed by thread, actor and call id:
 * models and providers reuse call ids (`call_1`), so a result posted in one thread never answers
 * another thread's call. Bounded in count and in time, so results whose run went away do not pile up.
 * @example results.set({ threadId, actor: actor?.id, toolCallId }, content); results.take(call) // content, once
 */
export class AgUiFrontendResults {
  readonly #results = new Map<string, { value: string; at: number }>();
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: AgUiFrontendResultsOptions = {}) {
    this.#max = options.max ?? 10_000;
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** How many results are held. */
  get size(): number {
    return this.#results.size;
  }

  set(call: AgUiFrontendCall, value: string): void {
    this.#prune();
    const key = keyOf(call);
    this.#results.delete(key);
    this.#results.set(key, { value, at: this.#now() });
    if (this.#results.size > this.#max) this.#results.delete(this.#results.keys().next().value!);
  }

  /** The call's result, once (it is forgotten); `undefined` when none was sent or it expired. */
  take(call: AgUiFrontendCall): string | undefined {
    this.#prune();
    const key = keyOf(call);
    const held = this.#results.get(key);
    this.#results.delete(key);
    return held?.value;
  }

  /** Drops the expired results (the oldest come first). */
  #prune(): void {
    const oldest = this.#now() - this.#ttlMs;
    for (const [key, { at }] of this.#results) {
      if (at >= oldest) return;
      this.#results.delete(key);
    }
  }
}

// JSON keeps the parts apart whatever characters they hold.
const keyOf = (call: AgUiFrontendCall) =>
  JSON.stringify([call.threadId, call.actor ?? null, call.toolCallId]);
