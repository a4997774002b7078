import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'marbles/**/*.test.ts'],
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
