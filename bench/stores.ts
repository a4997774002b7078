// Session append throughput per store: appends/s with 1 writer and with 50 concurrent writers.
// Each writer appends a user + assistant pair per append to its own session and starts a new
// session every 20 appends (a conversation's length, so growth cost stays realistic). Stores whose
// server does not answer on 127.0.0.1 are skipped. Run alone: npx node --conditions=rxagent-source bench/stores.ts
// Env: BENCH_STORE_APPENDS (appends per configuration, default 1000).
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { assistant, user } from '../src/core/index.ts';
import type { SessionStore } from '../src/sessions/index.ts';
import { serverAnswers, sessionStoreBenches } from './lib/session-stores.ts';

const total = Number(process.env.BENCH_STORE_APPENDS ?? 1000);
const perSession = 20;
const writerCounts = [1, 50];

const benches = sessionStoreBenches('tput');

async function measure(store: SessionStore, writers: number): Promise<number> {
  const each = Math.max(1, Math.round(total / writers));
  const pair = [
    user('What is the weather in Oslo tomorrow?'),
    assistant('Sunny, 18 °C, light wind from the west.'),
  ];
  const writer = async () => {
    let id = `bench-${randomUUID()}`;
    for (let i = 0; i < each; i += 1) {
      if (i % perSession === 0) id = `bench-${randomUUID()}`;
      await store.append(id, pair);
    }
  };
  // A short untimed warm-up: connections opened, tables created, code compiled.
  await Promise.all(
    Array.from({ length: Math.min(writers, 10) }, () => store.append(`warm-${randomUUID()}`, pair)),
  );
  const started = performance.now();
  await Promise.all(Array.from({ length: writers }, writer));
  return (each * writers) / ((performance.now() - started) / 1000);
}

const rows: { store: string; appendsPerSecond: Record<string, number> | null; note?: string }[] = [];
for (const bench of benches) {
  if (bench.port !== undefined && !(await serverAnswers(bench.port))) {
    rows.push({
      store: bench.name,
      appendsPerSecond: null,
      note: `skipped: nothing on 127.0.0.1:${bench.port}`,
    });
    continue;
  }
  const { store, close } = await bench.open();
  const appendsPerSecond: Record<string, number> = {};
  try {
    for (const writers of writerCounts) appendsPerSecond[writers] = await measure(store, writers);
  } finally {
    await close();
  }
  rows.push({ store: bench.name, appendsPerSecond });
}

console.log(
  `session appends/s (${total} appends of 2 messages per configuration, ${perSession} appends per session)`,
);
console.log(
  ['store'.padEnd(10), ...writerCounts.map((w) => `${w} writer${w > 1 ? 's' : ''}`.padStart(12))].join(''),
);
for (const row of rows) {
  const cells = row.appendsPerSecond
    ? writerCounts.map((w) => Math.round(row.appendsPerSecond![w]!).toLocaleString('en').padStart(12))
    : [`  ${row.note}`];
  console.log([row.store.padEnd(10), ...cells].join(''));
}
await mkdir('.bench-out', { recursive: true });
await writeFile(
  '.bench-out/stores.json',
  `${JSON.stringify({ date: new Date().toISOString(), total, perSession, rows }, null, 2)}\n`,
);
