import type { GeminiThinking } from './to-gemini-request.ts';

/**
 * `providerOptions.gemini`: `streamGenerateContent` body fields, spread over the body rxagent
 * builds; a `generationConfig` here is merged into rxagent's. `thinking` is rxagent's own shape
 * (it overrides the model's `thinking` option); any other field passes as it is.
 * @example { gemini: { thinking: { budgetTokens: 0 }, cachedContent: 'cachedContents/abc' } }
 */
export interface GeminiProviderOptions extends Record<string, unknown> {
  /** Thinking for this request, or `false` to turn the model's default off. */
  thinking?: GeminiThinking | false;
  /** Per-category safety thresholds. */
  safetySettings?: readonly { category: string; threshold: string }[];
  /** A context cache (`cachedContents/…`) to read the prompt prefix from. */
  cachedContent?: string;
  /** Extra `generationConfig` fields (`responseModalities`, `mediaResolution`, …), merged into rxagent's. */
  generationConfig?: Record<string, unknown>;
  /** Billing labels (Vertex AI). */
  labels?: Record<string, string>;
}
