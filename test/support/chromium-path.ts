import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where the browser suites find Chromium: `CHROMIUM_PATH`, else a `chromium` on `PATH` (Debian's is
 * /usr/bin/chromium), as `.ci/run` looks for it. `undefined` skips those suites with a warning, but
 * under `CI=true` a missing browser fails the run, as a missing database does.
 */
export function chromiumPath(): string | undefined {
  const given = process.env.CHROMIUM_PATH;
  const found =
    given !== undefined && given !== ''
      ? given
      : (process.env.PATH ?? '')
          .split(delimiter)
          .filter((dir) => dir !== '')
          .map((dir) => join(dir, 'chromium'))
          .find((file) => existsSync(file));
  if (found !== undefined && existsSync(found)) return found;
  const why =
    given !== undefined && given !== '' ? `CHROMIUM_PATH ${given} does not exist` : 'no chromium on PATH';
  if (process.env.CI === 'true') throw new Error(`Chromium is not installed (${why}), and CI needs it`);
  console.warn(`Skipping the browser tests: ${why} (set CHROMIUM_PATH to use another)`);
  return undefined;
}
