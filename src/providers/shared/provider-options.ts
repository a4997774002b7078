import type { ModelPrice } from '../../core/index.ts';
import type { RetryWithBackoffOptions } from '../../operators/index.ts';

/** Options every provider factory accepts. */
export interface ProviderOptions {
  /** Defaults to the provider's usual environment variable. */
  apiKey?: string;
  /** Defaults to the provider's public endpoint (or its environment variable). */
  baseURL?: string;
  /** Extra headers sent with every request, merged case-insensitively over the provider's own (a `CallOptions.headers` entry wins over both). */
  headers?: Record<string, string>;
  /**
   * A `fetch` to use instead of the global one (proxies, tests). It is called with the URL as a
   * string and an init holding `method: 'POST'`, `headers` (a `Headers`), the body text, a `signal`
   * and `redirect: 'manual'`; a redirect it returns is refused, never followed.
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Errors with `TimeoutError` when no byte arrives for this long (before the answer or between
   * chunks); `Infinity` waits forever. `CallOptions.timeoutMs` overrides it per call. Before the
   * answer the wait is exact; between chunks the error may come up to a tenth of it later (a
   * timer checks for silence, so a chunk costs no clock read).
   * @default 600000 (10 minutes, as the openai SDK: long enough for reasoning models)
   */
  timeoutMs?: number;
  /** Backoff for failures before the first event; `false` sends each request once. @default { maxRetries: 2 } */
  retry?: Pick<RetryWithBackoffOptions, 'maxRetries' | 'initialDelayMs' | 'maxDelayMs'> | false;
  /** The model's price, for `ChatResponse.cost`; defaults to the entry in `modelPrices`. */
  price?: ModelPrice;
  /** The model's context window in tokens (`ChatModel.contextWindow`); defaults to the entry in `modelInfo`. */
  contextWindow?: number;
  /** Emit `ToolCallDelta` events for every request of this model (`CallOptions.emitToolCallDeltas` overrides it). @default false */
  emitToolCallDeltas?: boolean;
}

/** The idle timeout between bytes when none is set: 10 minutes, the openai SDK's request timeout. */
export const DEFAULT_IDLE_TIMEOUT_MS = 600_000;

/** `url` without trailing slashes. */
export const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** An environment variable, or `undefined` where there is no `process` (browsers). */
export function env(name: string): string | undefined {
  return typeof process === 'undefined' ? undefined : process.env[name] || undefined;
}
