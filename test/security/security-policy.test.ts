import { describe, expect, it } from 'vitest';
import { type Actor, memoryRateLimiter, redactContent, SecurityPolicy } from '../../src/security/index.ts';

const alice: Actor = { id: 'alice' };
const bob: Actor = { id: 'bob' };
const request = (toolName: string, args: Record<string, unknown> = {}, actor: Actor | null = alice) => ({
  toolName,
  arguments: args,
  actor: actor ?? undefined,
});

describe('SecurityPolicy', () => {
  it('allows everything by default', async () => {
    const policy = new SecurityPolicy();
    expect(policy.isAllowed('anything')).toBe(true);
    expect(await policy.check(request('anything'))).toEqual({ type: 'allow' });
  });

  it('applies allow and deny lists with * wildcards; deny wins', async () => {
    const policy = new SecurityPolicy({ allow: ['get_*', 'fs__read_file'], deny: ['get_secret'] });
    expect(policy.isAllowed('get_weather')).toBe(true);
    expect(policy.isAllowed('fs__read_file')).toBe(true);
    expect(policy.isAllowed('fs__write_file')).toBe(false);
    expect(policy.isAllowed('get_secret')).toBe(false);
    expect(policy.isAllowed('xget_weather')).toBe(false);
    expect(await policy.check(request('get_secret'))).toEqual({
      type: 'deny',
      reason: 'Tool get_secret is not allowed',
    });
  });

  it('treats regex characters in patterns literally', () => {
    const policy = new SecurityPolicy({ allow: ['a.b*'] });
    expect(policy.isAllowed('a.bc')).toBe(true);
    expect(policy.isAllowed('axbc')).toBe(false);
  });

  it('runs the argument validators of matching tools; a thrown error refuses (fail closed)', async () => {
    const seen: string[] = [];
    const policy = new SecurityPolicy({
      validators: {
        read_file: ({ path }) =>
          String(path).startsWith('/sandbox/') ? undefined : 'path must be inside /sandbox',
        'fs__*': [
          (_args, { toolName, actor }) => {
            seen.push(`${toolName}:${actor?.id}`);
            return undefined;
          },
          () => {
            throw new Error('database down');
          },
        ],
      },
    });
    expect(await policy.check(request('read_file', { path: '/sandbox/a' }))).toEqual({ type: 'allow' });
    expect(await policy.check(request('read_file', { path: '/etc/passwd' }))).toEqual({
      type: 'deny',
      reason: 'path must be inside /sandbox',
    });
    expect(await policy.check(request('fs__list'))).toEqual({
      type: 'deny',
      reason: 'The arguments of fs__list did not pass the security checks',
    });
    expect(seen).toEqual(['fs__list:alice']);
  });

  it('rate-limits per actor and per tool', async () => {
    const policy = new SecurityPolicy({
      rateLimiter: memoryRateLimiter({ limit: 1, windowMs: 60_000, now: () => 0 }),
    });
    expect((await policy.check(request('a', {}, alice))).type).toBe('allow');
    const limited = await policy.check(request('a', {}, alice));
    expect(limited).toMatchObject({
      type: 'rate-limited',
      reason: 'Rate limit reached for a; retry in 60 s',
    });
    expect(limited.type === 'rate-limited' && limited.retryAfterMs).toBe(60_000);
    expect((await policy.check(request('b', {}, alice))).type).toBe('allow');
    expect((await policy.check(request('a', {}, bob))).type).toBe('allow');
    expect((await policy.check(request('a', {}, null))).type).toBe('allow');
    expect((await policy.check(request('a', {}, null))).type).toBe('rate-limited');
  });

  it('takes no rate-limit token for a denied call', async () => {
    const policy = new SecurityPolicy({
      validators: { a: ({ ok }) => (ok ? undefined : 'no') },
      rateLimiter: memoryRateLimiter({ limit: 1, windowMs: 60_000, now: () => 0 }),
    });
    expect((await policy.check(request('a', { ok: false }))).type).toBe('deny');
    expect((await policy.check(request('a', { ok: true }))).type).toBe('allow');
  });

  it('accepts a custom rate-limit key (e.g. per actor across tools)', async () => {
    const policy = new SecurityPolicy({
      rateLimiter: memoryRateLimiter({ limit: 1, windowMs: 60_000, now: () => 0 }),
      rateLimitKey: (actor) => actor?.id ?? 'anonymous',
    });
    expect((await policy.check(request('a'))).type).toBe('allow');
    expect((await policy.check(request('b'))).type).toBe('rate-limited');
  });

  it('filters content through the content filter, or passes it through', async () => {
    const context = { toolName: 't', toolCallId: 'c', actor: alice, status: 'ok' };
    expect(new SecurityPolicy().filterContent('sk-secret', context)).toBe('sk-secret');
    const policy = new SecurityPolicy({
      contentFilter: async (text, ctx) => `${ctx.toolName}:${text.toUpperCase()}`,
    });
    expect(await policy.filterContent('abc', context)).toBe('t:ABC');
  });
});

describe('redactContent', () => {
  it('replaces every match of every pattern, global or not', () => {
    const filter = redactContent([/sk-[a-z0-9]{8,}/, /AKIA[0-9A-Z]{16}/g], '***');
    const context = { toolName: 't', toolCallId: 'c', actor: undefined, status: 'ok' };
    expect(filter('a sk-abcdefgh12 b sk-zzzzzzzzzz AKIAABCDEFGHIJKLMNOP', context)).toBe('a *** b *** ***');
    expect(redactContent([/x/])('axbx', context)).toBe('a[REDACTED]b[REDACTED]');
  });
});
