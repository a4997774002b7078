/**
 * The JavaScript half of `npm run build` (tsc writes the declarations): every entry in `exports`,
 * and the CLI, bundled from src/ by esbuild into dist/ at the path `exports` names, the code they
 * share split into dist/chunks/ so each module still exists once (one `RxAgentError` class for every
 * entry). Packages stay imports.
 *
 * `imports` (`#json-schema-engine`) stay imports too, each target an entry of its own.
 *
 * Why bundle: Node loads each ES module with its own resolution, file read and module record, and
 * the garbage that leaves is collected during the process's first request. Per-file output made
 * `rxagent/openai` 114 modules; bundled, importing it takes ~30% less time and leaves ~3 MB less
 * heap, so the first request no longer runs into a full collection (bench/README.md).
 *
 * `npm run build` runs it after tsc; alone: `npx node scripts/bundle-dist.ts` (the `node` devDependency runs .ts files).
 */
import { fileURLToPath } from 'node:url';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  exports: Condition;
  imports: Record<string, Condition>;
  bin: Record<string, string>;
};
type Condition = string | { [condition: string]: Condition };

/** Every file a condition map names under `condition` (a bare string is the `default`). */
const named = (target: Condition, condition: string): string[] =>
  typeof target === 'string'
    ? condition === 'default'
      ? [target]
      : []
    : Object.entries(target).flatMap(([key, value]) =>
        typeof value === 'string' ? (key === condition ? [value] : []) : named(value, condition),
      );
/** The src/ files a condition map names: the build writes each where `default` says. */
const sources = (target: Condition): string[] => named(target, 'rxagent-source');

// `imports` entries (`#json-schema-engine`: ajv, or cfworker's validator under workerd) stay
// imports, resolved by the runtime's conditions; so each of their targets is an entry of its own.
const entries = [
  ...new Set([...sources(manifest.exports), ...Object.values(manifest.imports).flatMap(sources)]),
];
const bins = Object.values(manifest.bin).map((file) =>
  file.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts'),
);

// Chunk names change with their content: a previous build's would stay beside this one's.
await rm(join(root, 'dist/chunks'), { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: [...entries, ...bins],
  outbase: 'src',
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2023',
  packages: 'external',
  external: Object.keys(manifest.imports),
  chunkNames: 'chunks/[name]-[hash]',
  // No `keepNames`: its ~1,000 `__name` calls cost ~2 ms of every import. Errors name themselves
  // (`RxAgentError`'s static `kind`); only a few internal functions are renamed (`isRecord2`), in
  // stack traces that source maps read back.
  sourcemap: true,
  // The maps point into src/, which the package ships.
  sourcesContent: false,
  // The declarations carry the documentation.
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
const promised = [manifest.exports, ...Object.values(manifest.imports), ...Object.values(manifest.bin)]
  .flatMap((target) => named(target, 'default'))
  .filter((file) => file.startsWith('./dist/') && file.endsWith('.js'));
const missing = promised.filter((file) => !outputs.includes(file.slice(2)));
if (missing.length > 0)
  throw new Error(`bundle-dist: package.json names files the build did not write: ${missing.join(', ')}`);
console.log(`bundle-dist: ${entries.length + bins.length} entries, ${outputs.length} files in dist/`);
