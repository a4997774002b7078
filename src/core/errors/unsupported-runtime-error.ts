import { RxAgentError } from './rx-agent-error.ts';

/**
 * A Node-only piece (a file store, a file audit log, a recording on disk) was used in a runtime
 * without Node's built-in modules: a browser, or a Cloudflare Worker without `nodejs_compat`.
 * Importing it never fails; only using it does, with the module it needs named.
 * @example new UnsupportedRuntimeError('fileSessionStore needs Node.js (node:fs/promises)', 'node:fs/promises')
 */
export class UnsupportedRuntimeError extends RxAgentError {
  static override readonly kind: string = 'UnsupportedRuntimeError';
  /** The built-in module the piece needs, e.g. `node:fs/promises`. */
  readonly module: string;

  constructor(message: string, module: string) {
    super(message, 'unsupported_runtime');
    this.module = module;
  }
}
