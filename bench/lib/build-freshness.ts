import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The newest modification time of any file under `dir`, in ms. */
function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Why the built package cannot stand for src/ (missing, or older than a file it is built from), or
 * `undefined` when it can: the `rxagent` runner measures dist/, so a stale build would measure
 * code that is no longer there.
 */
export function staleBuild(): string | undefined {
  const entry = join(root, 'dist/providers/openai/index.js');
  let built: number;
  try {
    built = statSync(entry).mtimeMs;
  } catch {
    return 'dist/ is missing: run `npm run build` (npm run bench does)';
  }
  // What the build reads besides src/: the entries (package.json), the bundler's options and tsc's.
  const inputs = ['package.json', 'scripts/bundle-dist.ts', 'tsconfig.json', 'tsconfig.build.json'];
  const mtime = (file: string) => statSync(join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const newest = Math.max(newestIn(join(root, 'src')), ...inputs.map(mtime));
  return newest > built
    ? 'dist/ is older than what it is built from (src/, package.json, the build scripts): run `npm run build` (npm run bench does), or BENCH_RXAGENT=source'
    : undefined;
}
