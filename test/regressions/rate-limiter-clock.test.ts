import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from '../../src/security/index.ts';

describe('memoryRateLimiter and a clock that steps back (regressions)', () => {
  it('does not credit the same interval twice when the wall clock is set back and catches up', async () => {
    let now = 100_000;
    const limiter = memoryRateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    for (let i = 0; i < 3; i++) expect((await limiter.consume('a')).allowed).toBe(true);
    now = 60_000; // the clock is stepped back 40 s (NTP, a VM resumed)
    expect((await limiter.consume('a')).allowed).toBe(false);
    now = 100_000; // …and catches up: no time has passed since the bucket emptied
    expect((await limiter.consume('a')).allowed).toBe(false);
    now = 120_000; // 20 s after the bucket emptied: one token (3 per minute)
    expect((await limiter.consume('a')).allowed).toBe(true);
    expect((await limiter.consume('a')).allowed).toBe(false);
  });
});
