import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { SessionStoreError, textOf, user } from '../../src/core/index.ts';
import type { SessionStore } from '../../src/sessions/index.ts';

/**
 * Appends 10 pairs one by one (all must succeed), then a wave of 30 at once, calling `cut` (a
 * dropped connection, a killed backend, a restarted server) once the first of the wave is
 * acknowledged. Then checks: failures are `SessionStoreError`s, the store works again, every
 * acknowledged append is there exactly once, and each append is whole (both messages) or absent.
 * @param reader a store on the same backend, to read the result independently of `fragile`
 */
export async function expectNothingLostAcrossDrop(
  fragile: SessionStore,
  reader: SessionStore,
  cut: () => Promise<void>,
): Promise<void> {
  const id = `drop-${randomUUID()}`;
  const attempt = (i: number) =>
    fragile.append(id, [user(`a-${i}`), user(`b-${i}`)]).then(
      () => ({ i, ok: true as const }),
      (error: unknown) => ({ i, ok: false as const, error }),
    );
  const outcomes = [];
  for (let i = 0; i < 10; i += 1) outcomes.push(await attempt(i));
  expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
  const wave = Array.from({ length: 30 }, (_, k) => attempt(10 + k));
  await Promise.race(wave);
  await cut();
  outcomes.push(...(await Promise.all(wave)));
  for (const outcome of outcomes) if (!outcome.ok) expect(outcome.error).toBeInstanceOf(SessionStoreError);
  // The store recovers: a new append goes through once the connection is back.
  await expect(fragile.append(id, [user('after')])).resolves.toBeDefined();
  const read = (await reader.get(id))!.messages.map((message) => textOf(message.content));
  expect(new Set(read).size).toBe(read.length);
  expect(read.at(-1)).toBe('after');
  for (const { i, ok } of outcomes) {
    const at = read.indexOf(`a-${i}`);
    if (ok) expect(at).toBeGreaterThanOrEqual(0);
    if (at >= 0) expect(read[at + 1]).toBe(`b-${i}`);
    else expect(read).not.toContain(`b-${i}`);
  }
}
