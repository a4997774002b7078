import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ForbiddenToolArgumentError } from '../../src/index.ts';
import { toAnthropicRequest } from '../../src/providers/anthropic/to-anthropic-request.ts';
import { SecurityPolicy } from '../../src/security/index.ts';
import { memoryRateLimiter } from '../../src/security/index.ts';
import { defineTool, fileAuditStore, ToolRegistry } from '../../src/tools/index.ts';

describe('review follow-ups (regressions)', () => {
  it('anthropic: provider options cannot switch streaming off', () => {
    const body = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi' },
      { maxOutputTokens: 1024, wire: { stream: false, top_k: 5 } },
    );
    expect(body).toMatchObject({ stream: true, top_k: 5 });
  });

  it('identity names: full-width look-alikes are refused too', () => {
    const define = () =>
      defineTool({
        name: 'lookup',
        description: '',
        input: { type: 'object', properties: { ｕｓｅｒ＿ｉｄ: { type: 'string' } } },
        execute: () => 1,
      });
    expect(define).toThrow(ForbiddenToolArgumentError);
  });

  it('audit log files are created readable by their owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-mode-'));
    try {
      const path = join(dir, 'audit.jsonl');
      const store = fileAuditStore({ path });
      await store.append({
        type: 'outcome',
        time: new Date().toISOString(),
        toolCallId: 'c',
        tool: 't',
        status: 'ok',
        durationMs: 1,
      });
      await store.close?.();
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a call cancelled before it runs takes no rate-limit token and reaches no authorize()', async () => {
    let authorized = 0;
    const tool = defineTool({
      name: 't',
      description: '',
      input: { type: 'object' },
      authorize: () => {
        authorized += 1;
        return true;
      },
      execute: () => 'ran',
    });
    const tools = new ToolRegistry({
      policy: new SecurityPolicy({ rateLimiter: memoryRateLimiter({ limit: 1, windowMs: 60_000 }) }),
    }).register(tool);
    const cancelled = await tools.invoke(
      { id: 'c1', name: 't', arguments: {} },
      { signal: AbortSignal.abort() },
    );
    expect(cancelled).toMatchObject({ status: 'error', error: { message: 'The call of t was cancelled' } });
    expect(authorized).toBe(0);
    // the single token is still there for a live call
    expect((await tools.invoke({ id: 'c2', name: 't', arguments: {} })).status).toBe('ok');
  });
});
