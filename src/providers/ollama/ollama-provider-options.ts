/**
 * `providerOptions.ollama`: `think`, `keep_alive`, `format` and `options` are top-level fields of
 * the `/api/chat` body (`options` merged into rxagent's); every other key is a model option and
 * goes into `options` (`num_ctx`, `repeat_penalty`, `mirostat` …).
 * @example { ollama: { think: 'low', num_ctx: 8192, keep_alive: '10m' } }
 */
export interface OllamaProviderOptions extends Record<string, unknown> {
  /** Thinking on or off, or its level for models that take one. */
  think?: boolean | 'low' | 'medium' | 'high';
  /** How long the model stays loaded after the request (`'10m'`, seconds, `-1`). */
  keep_alive?: string | number;
  /** `'json'` or a JSON Schema; overrides `responseFormat`. */
  format?: 'json' | Record<string, unknown>;
  /** Model options, merged over the model's and the request's. */
  options?: Record<string, unknown>;
  /** The context window in tokens. */
  num_ctx?: number;
}
