import type { Actor } from './actor.ts';

/** What an argument validator knows about the call besides its arguments. */
export interface ArgumentValidatorContext {
  toolName: string;
  actor: Actor | undefined;
}

/**
 * A policy check on a tool call's (already schema-valid) arguments: returns a reason to refuse the
 * call (it becomes `permission_denied`, and the model sees the reason), or nothing to let it through.
 * Throwing refuses the call too (fail closed).
 * @example const inSandbox: ArgumentValidator = ({ path }) =>
 *   String(path).startsWith('/sandbox/') ? undefined : 'path must be inside /sandbox';
 */
export type ArgumentValidator = (
  args: Readonly<Record<string, unknown>>,
  context: ArgumentValidatorContext,
) => string | undefined | Promise<string | undefined>;
