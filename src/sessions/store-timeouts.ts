/**
 * The bounds on every wait of a store that talks to a server or a disk. A call that exceeds them
 * is a `SessionStoreError` (its `cause` a `TimeoutError`); it never hangs, and never holds later
 * calls on the same id.
 */
export interface StoreTimeouts {
  /** Opening a connection (or, with a pool, waiting for a free one). @default 10_000 */
  connectTimeoutMs?: number;
  /** One statement or command, and an operation once connected. @default 10_000 */
  queryTimeoutMs?: number;
  /** Waiting for a row lock (SQL) or the session's lock file (file store). @default 5_000 */
  lockTimeoutMs?: number;
}

/** `StoreTimeouts` with every default filled in. */
export type ResolvedStoreTimeouts = Required<StoreTimeouts> & {
  /** The bound on one whole operation: connecting, then its statements. */
  operationTimeoutMs: number;
};

/** The defaults of `StoreTimeouts`. */
export const DEFAULT_STORE_TIMEOUTS: Readonly<Required<StoreTimeouts>> = Object.freeze({
  connectTimeoutMs: 10_000,
  queryTimeoutMs: 10_000,
  lockTimeoutMs: 5_000,
});

/**
 * The timeouts a store runs with: the given ones over the defaults, each a positive finite number.
 * @throws RangeError for a timeout that is not
 * @example storeTimeouts({ queryTimeoutMs: 2_000 }).operationTimeoutMs // 12_000
 */
export function storeTimeouts(options: StoreTimeouts = {}): ResolvedStoreTimeouts {
  const resolved = { ...DEFAULT_STORE_TIMEOUTS };
  for (const key of Object.keys(resolved) as (keyof StoreTimeouts)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!(Number.isFinite(value) && value > 0))
      throw new RangeError(`${key} must be a positive number of ms`);
    resolved[key] = value;
  }
  return { ...resolved, operationTimeoutMs: resolved.connectTimeoutMs + resolved.queryTimeoutMs };
}
