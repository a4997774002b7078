const KINDS = Symbol.for('rxagent.error.kinds');

interface ErrorClass<T> {
  readonly prototype: T;
  readonly kind: string;
}

/** Options every rxagent error accepts. */
export interface RxAgentErrorOptions {
  cause?: unknown;
}

/**
 * The base of every error rxagent raises. `code` is stable and machine-readable; `Class.is(value)`
 * recognises an error even when it comes from another copy of the package (a second install, a
 * worker), where `instanceof` would fail.
 */
export class RxAgentError extends Error {
  /** The class's name, kept explicitly so minifiers cannot change it. */
  static readonly kind: string = 'RxAgentError';
  readonly code: string;

  constructor(message: string, code: string, options: RxAgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    const kinds: string[] = [];
    for (
      let cls: unknown = new.target;
      typeof cls === 'function' && 'kind' in cls;
      cls = Object.getPrototypeOf(cls)
    ) {
      kinds.push(String(cls.kind));
    }
    this.name = kinds[0] ?? 'RxAgentError';
    Object.defineProperty(this, KINDS, { value: kinds, enumerable: false });
  }

  /**
   * Whether `value` is an instance of this class (or a subclass), across package copies.
   * @example if (RateLimitError.is(err)) wait(err.retryAfterMs)
   */
  static is<T>(this: ErrorClass<T>, value: unknown): value is T {
    if (typeof value !== 'object' || value === null) return false;
    const kinds: unknown = Reflect.get(value, KINDS);
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}
