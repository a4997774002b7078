import type { Actor } from './actor.ts';

/** What a content filter knows about the text it filters. */
export interface ContentFilterContext {
  toolName: string;
  toolCallId: string;
  actor: Actor | undefined;
  /** The outcome's status (`ok`, `invalid_arguments`, `error`, …). */
  status: string;
}

/**
 * Rewrites the text a tool outcome shows the model (e.g. redacts secrets). It runs on every outcome,
 * after the result was capped at `maxResultBytes`. Throwing withholds the result.
 * @example const filter: ContentFilter = (text) => text.replaceAll(/sk-[\w-]{20,}/g, '[REDACTED]');
 */
export type ContentFilter = (content: string, context: ContentFilterContext) => string | Promise<string>;
