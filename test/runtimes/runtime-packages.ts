import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The JavaScript runtimes the package is tested in, as the npm registry ships them (each package
 * carries its platform's binary in an optional dependency). Pinned: a new runtime release is a
 * deliberate bump here, not a surprise in CI.
 */
export const RUNTIME_PACKAGES = {
  deno: { spec: 'deno@2.9.6', bin: 'deno' },
  bun: { spec: 'bun@1.4.5', bin: 'bun' },
  workerd: { spec: 'workerd@1.20261117.1', bin: 'workerd' },
} as const;

export type RuntimeName = keyof typeof RUNTIME_PACKAGES;

const cache = fileURLToPath(new URL('../../node_modules/.cache/rxagent-runtimes/', import.meta.url));
const run = promisify(execFile);

/**
 * The path of a runtime's binary, installing its package from the npm registry into
 * `node_modules/.cache` the first time (so a contributor's `npm install` stays light and a fresh
 * clone's `npm test` still runs every runtime). Bounded: an install that takes over `timeoutMs`
 * fails the test that needs it.
 */
export async function runtimeBinary(name: RuntimeName, timeoutMs = 240_000): Promise<string> {
  const { spec, bin } = RUNTIME_PACKAGES[name];
  const prefix = join(cache, spec.replace(/[@/]/g, '_'));
  const path = join(prefix, 'node_modules', '.bin', bin);
  if (existsSync(path)) return path;
  await mkdir(prefix, { recursive: true });
  await run(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec],
    { timeout: timeoutMs },
  );
  if (!existsSync(path)) throw new Error(`npm installed ${spec} but ${path} is missing`);
  return path;
}
