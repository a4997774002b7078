// m5: what one append costs as a session grows. For each store, two sessions are filled to 10 and
// to 10,000 messages (in batches, untimed), then each takes BENCH_APPEND_LENGTH_APPENDS appends of
// 2 messages, timed; an append must cost about the same at both lengths (same order of
// magnitude). Stores whose server does not answer on 127.0.0.1 are skipped.
// Run alone: npx node --conditions=rxagent-source bench/append-length.ts
import { randomUUID } from 'node:crypto';
import { assistant, type Message, user } from '../src/core/index.ts';
import type { SessionStore } from '../src/sessions/index.ts';
import { serverAnswers, sessionStoreBenches } from './lib/session-stores.ts';

const appends = Number(process.env.BENCH_APPEND_LENGTH_APPENDS ?? 200);
const lengths = [10, 10_000];

const benches = sessionStoreBenches('len');

const pair: Message[] = [
  user('What is the weather in Oslo tomorrow?'),
  assistant('Sunny, 18 °C, light wind from the west.'),
];

/** Appends per second on a session already holding `length` messages. */
async function appendsPerSecond(store: SessionStore, length: number): Promise<number> {
  const id = `len-${length}-${randomUUID()}`;
  for (let filled = 0; filled < length;) {
    const batch = Math.min(500, length - filled);
    await store.append(
      id,
      Array.from({ length: batch }, (_, i) => pair[i % 2]!),
    );
    filled += batch;
  }
  const started = performance.now();
  for (let i = 0; i < appends; i += 1) await store.append(id, pair);
  return appends / ((performance.now() - started) / 1000);
}

console.log(`appends/s of 2 messages on a session already holding n messages (${appends} appends each)`);
console.log(['store'.padEnd(10), ...lengths.map((n) => `n=${n}`.padStart(12)), 'ratio'.padStart(8)].join(''));
for (const bench of benches) {
  if (bench.port !== undefined && !(await serverAnswers(bench.port))) {
    console.log(`${bench.name.padEnd(10)}  skipped: nothing on 127.0.0.1:${bench.port}`);
    continue;
  }
  const { store, close } = await bench.open();
  try {
    await store.append(`warm-${randomUUID()}`, pair);
    const rates = [];
    for (const length of lengths) rates.push(await appendsPerSecond(store, length));
    const cells = rates.map((rate) => Math.round(rate).toLocaleString('en').padStart(12));
    console.log(
      [bench.name.padEnd(10), ...cells, `${(rates[0]! / rates[1]!).toFixed(2)}x`.padStart(8)].join(''),
    );
  } finally {
    await close();
  }
}
