import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** Where the built page is. */
export const pageDist = new URL('./dist/', import.meta.url);

/** Builds the React page with Vite into `dist/` (a few seconds; no dev server). */
export async function buildPage(): Promise<void> {
  await build({
    root: fileURLToPath(new URL('./page/', import.meta.url)),
    base: '/',
    logLevel: 'error',
    build: { outDir: fileURLToPath(pageDist), emptyOutDir: true },
  });
}
