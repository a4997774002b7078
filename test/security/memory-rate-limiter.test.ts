import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from '../../src/security/index.ts';

function clock(start = 1_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('memoryRateLimiter', () => {
  it('allows `limit` requests at once, then refuses with the time until the next token', async () => {
    const time = clock();
    const limiter = memoryRateLimiter({ limit: 3, windowMs: 3_000, now: time.now });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('a'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[3]?.retryAfterMs).toBe(1_000);
  });

  it('refills continuously (a token bucket), never above the burst', async () => {
    const time = clock();
    const limiter = memoryRateLimiter({ limit: 2, windowMs: 1_000, now: time.now });
    await limiter.consume('a');
    await limiter.consume('a');
    expect((await limiter.consume('a')).allowed).toBe(false);
    time.advance(500);
    expect(await limiter.consume('a')).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    time.advance(60_000);
    expect((await limiter.consume('a')).remaining).toBe(1);
  });

  it('keeps keys apart', async () => {
    const limiter = memoryRateLimiter({ limit: 1, windowMs: 60_000, now: clock().now });
    expect((await limiter.consume('alice')).allowed).toBe(true);
    expect((await limiter.consume('alice')).allowed).toBe(false);
    expect((await limiter.consume('bob')).allowed).toBe(true);
  });

  it('honours burst and cost', async () => {
    const time = clock();
    const limiter = memoryRateLimiter({ limit: 10, windowMs: 10_000, burst: 2, now: time.now });
    expect((await limiter.consume('k', 2)).allowed).toBe(true);
    const refused = await limiter.consume('k', 2);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterMs: 2_000 });
    await expect(limiter.consume('k', 3)).rejects.toBeInstanceOf(RangeError);
  });

  it('forgets the least recently used keys beyond maxKeys', async () => {
    const limiter = memoryRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2, now: clock().now });
    await limiter.consume('a');
    await limiter.consume('b');
    await limiter.consume('a'); // refused, but marks 'a' as recently used
    await limiter.consume('c'); // evicts 'b'
    expect((await limiter.consume('a')).allowed).toBe(false);
    expect((await limiter.consume('b')).allowed).toBe(true);
  });

  it('refuses nonsensical options', () => {
    expect(() => memoryRateLimiter({ limit: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => memoryRateLimiter({ limit: 1, windowMs: Number.NaN })).toThrow(RangeError);
  });
});
