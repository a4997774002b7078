// Type-only: erased from the output, so no bundler or runtime ever sees these imports.
import type * as NodeFs from 'node:fs';
import type * as NodeFsPromises from 'node:fs/promises';
import type * as NodeOs from 'node:os';
import type * as NodePath from 'node:path';
import { UnsupportedRuntimeError } from './errors/unsupported-runtime-error.ts';

interface NodeBuiltins {
  'node:fs': typeof NodeFs;
  'node:fs/promises': typeof NodeFsPromises;
  'node:os': typeof NodeOs;
  'node:path': typeof NodePath;
}

type GetBuiltinModule = (id: string) => unknown;

/**
 * A Node built-in module, loaded where a Node-only piece uses it rather than imported at load time,
 * so that `rxagent` itself bundles for a browser or a Worker (a bundler never sees an `import` of
 * `node:fs`, and importing the piece there never fails). Node ≥ 20.16, Deno and Bun provide
 * `process.getBuiltinModule`; elsewhere this throws an `UnsupportedRuntimeError` naming `usedBy`.
 * @example const { readFile } = nodeBuiltin('node:fs/promises', 'fileSessionStore');
 */
export function nodeBuiltin<Id extends keyof NodeBuiltins>(id: Id, usedBy: string): NodeBuiltins[Id] {
  const process = (globalThis as { process?: { getBuiltinModule?: GetBuiltinModule } }).process;
  const loaded = process?.getBuiltinModule?.(id);
  if (loaded === undefined)
    throw new UnsupportedRuntimeError(
      `${usedBy} needs Node.js (${id}), which this runtime does not provide`,
      id,
    );
  return loaded as NodeBuiltins[Id];
}
