import { defineConfig } from 'vitest/config';

// Tests run on src/, never on a build: the package's `rxagent-source` export condition points each
// `rxagent` specifier (the examples import the package by name) at its TypeScript source, so a fresh
// clone needs no `npm run build` before `npm test`. Tests run in Vite's server (ssr) environment,
// whose conditions these replace; the other two are Vitest's defaults for it (Vite's without
// `module`, which would load bundler-only ESM builds such as @smithy's `dist-es`). Vitest passes
// them to its workers as `--conditions`; the tests' child processes get `--conditions=rxagent-source`.
const conditions = ['rxagent-source', 'node', 'development|production'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts', 'marbles/**/*.test.ts'],
    globalSetup: ['test/services-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/**/index.ts'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: {
        'src/core/**': { lines: 90 },
        'src/operators/**': { lines: 90 },
        'src/providers/openai/**': { lines: 90 },
        'src/tools/**': { lines: 90 },
        'src/security/**': { lines: 90 },
      },
    },
  },
});
