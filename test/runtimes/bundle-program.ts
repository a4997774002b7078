import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ENTRIES, type EntryKind } from './entries.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * Bundles the program for a non-Node runtime as a user's bundler would: ESM, platform browser,
 * from the package's own export conditions (`rxagent-source` resolves to src/, so no build is
 * needed; `workerd`/`worker` pick what Workers need). Fails if anything pulls in a `node:` module.
 */
export async function bundleProgram(kind: EntryKind): Promise<string> {
  const result = await build({
    stdin: { contents: ENTRIES[kind], resolveDir: here, sourcefile: `${kind}-entry.ts`, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['rxagent-source', ...(kind === 'worker' ? ['workerd', 'worker'] : [])],
    write: false,
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild wrote nothing');
  return file.text;
}

/**
 * Bundles `import * as m from '<specifier>'` for the browser: it fails when anything the entry
 * loads imports a `node:` module (esbuild cannot resolve them for platform browser).
 */
export async function bundleForBrowser(specifier: string): Promise<number> {
  const result = await build({
    stdin: { contents: `import * as m from '${specifier}'; console.log(m);`, resolveDir: here, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['rxagent-source'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.contents.length ?? 0;
}
