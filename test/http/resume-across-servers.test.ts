import { describe, expect, it } from 'vitest';
import { resumeChaos } from './support/resume-chaos.ts';

describe('resume across two app servers sharing Redis, under random socket cuts', () => {
  it.each([
    ['cut after a flush', 11, 0],
    ['cut abruptly a third of the time', 12, 0.3],
  ])(
    'every client gets every event exactly once and in order, each reconnection on a random server (%s)',
    async (_name, seed, abrupt) => {
      const report = await resumeChaos({
        url: 'redis://127.0.0.1:6379',
        runs: 12,
        eventsPerRun: 150,
        seed,
        abrupt,
      });
      expect(report).toMatchObject({ lost: 0, duplicated: 0, outOfOrder: 0, restarted: 0 });
      expect(report.cuts).toBeGreaterThan(12 * 2);
      // Both servers served resumes of runs the other one runs.
      expect(Math.min(report.connections.a, report.connections.b)).toBeGreaterThan(12);
      console.info(`resume across servers (${_name}): ${JSON.stringify(report)}`);
    },
    120_000,
  );
});
