// `npx node --conditions=rxagent-source bench/resume-across-servers.ts`: resume exactly-once across two
// app servers sharing one Redis (127.0.0.1:6379, or REDIS_URL), every stream cut after a random
// number of events and every reconnection sent to a random server. Prints runs, connections,
// cuts, and events lost / duplicated / out of order (all must be 0).
// Env: RESUME_RUNS (default 50), RESUME_EVENTS (default 300), RESUME_ROUNDS (default 3).
import { resumeChaos } from '../test/http/support/resume-chaos.ts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const runs = Number(process.env.RESUME_RUNS ?? 50);
const eventsPerRun = Number(process.env.RESUME_EVENTS ?? 300);
const rounds = Number(process.env.RESUME_ROUNDS ?? 3);
let failed = false;
console.log(
  'round | abrupt | runs x events | connections A/B | cuts | lost | duplicated | out of order | restarted | ms',
);
for (let round = 1; round <= rounds; round++) {
  for (const abrupt of [0, 0.3]) {
    const r = await resumeChaos({ url, runs, eventsPerRun, seed: round * 1000 + abrupt * 10, abrupt });
    failed ||= r.lost + r.duplicated + r.outOfOrder + r.restarted > 0;
    console.log(
      `${round} | ${abrupt} | ${r.runs} x ${r.eventsPerRun} | ${r.connections.a}/${r.connections.b} | ${r.cuts} | ` +
        `${r.lost} | ${r.duplicated} | ${r.outOfOrder} | ${r.restarted} | ${r.ms}`,
    );
  }
}
process.exitCode = failed ? 1 : 0;
