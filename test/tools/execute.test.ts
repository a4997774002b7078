import { interval, lastValueFrom, map, NEVER, Observable, of, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { TimeoutError, type ToolCall, ToolExecutionError } from '../../src/core/index.ts';
import { SecurityPolicy } from '../../src/security/index.ts';
import {
  defineTool,
  type ToolContext,
  type ToolExecuteResult,
  ToolRegistry,
  type ToolRegistryOptions,
} from '../../src/tools/index.ts';

function registryRunning(
  execute: (args: Record<string, unknown>, ctx: ToolContext) => ToolExecuteResult<unknown>,
  options: ToolRegistryOptions = {},
  timeoutMs?: number,
) {
  const tool = defineTool({
    name: 't',
    description: '',
    input: { type: 'object' },
    execute,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  return new ToolRegistry(options).register(tool);
}
const call = (id = 'c1') => ({ id, name: 't', arguments: {} });
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('execute results', () => {
  it('takes a value, a Promise or an Observable (its last value)', async () => {
    expect((await registryRunning(() => 7).invoke(call())).result).toBe(7);
    expect((await registryRunning(async () => ({ a: 1 })).invoke(call())).content).toBe('{"a":1}');
    expect((await registryRunning(() => of(1, 2, 3)).invoke(call())).result).toBe(3);
  });

  it('shows strings as they are, and undefined as {"ok":true}', async () => {
    expect((await registryRunning(() => 'plain text').invoke(call())).content).toBe('plain text');
    const outcome = await registryRunning(() => undefined).invoke(call());
    expect(outcome).toMatchObject({ status: 'ok', content: '{"ok":true}' });
    expect((await registryRunning(() => of()).invoke(call())).content).toBe('{"ok":true}');
  });

  it('reports earlier Observable values as progress (onProgress)', async () => {
    const progress: unknown[] = [];
    const registry = registryRunning(() => of({ pct: 50 }, { pct: 100 }, 'result'));
    const outcome = await registry.invoke(call(), { onProgress: (v) => progress.push(v) });
    expect(progress).toEqual([{ pct: 50 }, { pct: 100 }]);
    expect(outcome.result).toBe('result');
  });

  it('streams progress then the outcome from invoke$', async () => {
    const registry = registryRunning(() =>
      interval(1).pipe(
        take(3),
        map((i) => `step ${i}`),
      ),
    );
    const events = await lastValueFrom(registry.invoke$(call()).pipe(toArray()));
    expect(events.map((e) => (e.type === 'progress' ? e.value : e.outcome.result))).toEqual([
      'step 0',
      'step 1',
      'step 2',
    ]);
    expect(events[0]).toMatchObject({ type: 'progress', toolCallId: 'c1', name: 't' });
    expect(events.at(-1)?.type).toBe('outcome');
  });

  it('cancels the tool when invoke$ is unsubscribed', async () => {
    let signal: AbortSignal | undefined;
    let unsubscribed = false;
    const { promise: started, resolve } = deferred();
    const registry = registryRunning((_args, ctx) => {
      signal = ctx.signal;
      resolve();
      return new Observable(() => () => {
        unsubscribed = true;
      });
    });
    const events: unknown[] = [];
    const subscription = registry.invoke$(call()).subscribe((e) => events.push(e));
    await started;
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(unsubscribed).toBe(true);
    expect(events).toEqual([]);
  });

  it('turns a non-JSON result into an error', async () => {
    const outcome = await registryRunning(() => ({ big: 1n })).invoke(call());
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toBe('The result of t is not JSON');
  });
});

describe('execute failures', () => {
  it('hides the error of a failing tool from the model, but keeps it for the application', async () => {
    const outcome = await registryRunning(() => {
      throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db');
    }).invoke(call());
    expect(outcome.status).toBe('error');
    expect(JSON.parse(String(outcome.content))).toEqual({ error: 'error', message: 'Tool t failed' });
    expect(outcome.error?.message).toContain('hunter2');
    expect(outcome.error?.cause).toBeInstanceOf(Error);
  });

  it('shows a ToolExecutionError message to the model, on one line', async () => {
    const registry = registryRunning(async () => {
      throw new ToolExecutionError('No city named\nAtlantis');
    });
    expect(JSON.parse(String((await registry.invoke(call())).content)).message).toBe(
      'No city named Atlantis',
    );
    const observable = registryRunning(
      () => new Observable((s) => s.error(new ToolExecutionError('stream broke'))),
    );
    expect(JSON.parse(String((await observable.invoke(call())).content)).message).toBe('stream broke');
  });

  it('times out: aborts ctx.signal with a TimeoutError and answers at once', async () => {
    let reason: unknown;
    const registry = registryRunning(
      (_args, ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
          });
        }),
      {},
      30,
    );
    const outcome = await registry.invoke(call());
    expect(outcome.status).toBe('timeout');
    expect(JSON.parse(String(outcome.content))).toEqual({
      error: 'timeout',
      message: 'Tool t did not finish within 30 ms',
    });
    expect(TimeoutError.is(reason)).toBe(true);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(25);
  });

  it('uses the registry timeout when the tool has none, and unsubscribes an Observable on timeout', async () => {
    let unsubscribed = false;
    const registry = registryRunning(
      () =>
        new Observable(() => () => {
          unsubscribed = true;
        }),
      {
        timeoutMs: 20,
      },
    );
    expect((await registry.invoke(call())).status).toBe('timeout');
    expect(unsubscribed).toBe(true);
  });

  it('cancels with the caller signal (before or during the call)', async () => {
    let toolSignal: AbortSignal | undefined;
    const { promise: started, resolve } = deferred();
    const registry = registryRunning((_args, ctx) => {
      toolSignal = ctx.signal;
      resolve();
      return NEVER;
    });
    const controller = new AbortController();
    const pending = registry.invoke(call(), { signal: controller.signal });
    await started;
    controller.abort(new Error('user left'));
    const outcome = await pending;
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toBe('The call of t was cancelled');
    expect((toolSignal!.reason as Error).message).toBe('user left');
    let ran = false;
    const never = registryRunning(() => {
      ran = true;
      return 1;
    });
    expect((await never.invoke(call(), { signal: AbortSignal.abort() })).status).toBe('error');
    expect(ran).toBe(false);
  });
});

describe('result caps and content filter', () => {
  it('cuts long results at maxResultBytes on a character boundary, with a marker', async () => {
    const registry = registryRunning(() => 'é'.repeat(100), { maxResultBytes: 80 });
    const outcome = await registry.invoke(call());
    expect(outcome.truncated).toBe(true);
    expect(outcome.result).toBe('é'.repeat(100)); // the application still gets everything
    expect(Buffer.byteLength(String(outcome.content))).toBeLessThanOrEqual(80);
    expect(outcome.content).toMatch(/^é+…\[truncated: \d+ of 200 bytes shown\]$/);
    expect(outcome.content).not.toContain('\uFFFD');
  });

  it('caps at 100 KB by default', async () => {
    const outcome = await registryRunning(() => 'x'.repeat(200_000)).invoke(call());
    expect(Buffer.byteLength(String(outcome.content))).toBeLessThanOrEqual(102_400);
    expect(outcome.content).toContain('of 200000 bytes shown');
  });

  it('runs the content filter on what the model sees', async () => {
    const policy = new SecurityPolicy({
      contentFilter: (text, ctx) => `${ctx.status}:${text.replaceAll(/sk-\w+/g, '[REDACTED]')}`,
    });
    const outcome = await registryRunning(() => ({ key: 'sk-abc123' }), { policy }).invoke(call());
    expect(outcome.content).toBe('ok:{"key":"[REDACTED]"}');
    expect(outcome.result).toEqual({ key: 'sk-abc123' });
  });

  it('filters before capping, so a secret across the cap boundary is never half shown', async () => {
    const secret = 'sk-0123456789abcdefghij';
    const policy = new SecurityPolicy({
      contentFilter: (text) => text.replaceAll(/sk-\w{20}/g, '[REDACTED]'),
    });
    // the secret starts 10 bytes before the cap: capping first would show 'sk-0123' unredacted
    const registry = registryRunning(() => `${'x'.repeat(150)}${secret}${'y'.repeat(200)}`, {
      policy,
      maxResultBytes: 200,
    });
    const outcome = await registry.invoke(call());
    expect(outcome.truncated).toBe(true);
    expect(outcome.content).not.toContain('sk-');
    expect(outcome.content).toContain('[REDACTED]');
  });

  it('withholds the result when the content filter throws', async () => {
    const policy = new SecurityPolicy({
      contentFilter: () => {
        throw new Error('filter down');
      },
    });
    const outcome = await registryRunning(() => 'secret', { policy }).invoke(call());
    expect(outcome.status).toBe('error');
    expect(outcome.content).not.toContain('secret');
    expect(outcome).not.toHaveProperty('result');
  });
});

describe('invokeAll', () => {
  it('keeps the order of the calls and respects the concurrency cap', async () => {
    let running = 0;
    let peak = 0;
    const registry = new ToolRegistry().register(
      defineTool({
        name: 't',
        description: '',
        input: { type: 'object', properties: { ms: { type: 'number' } } },
        execute: async ({ ms }) => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, Number(ms)));
          running--;
          return ms;
        },
      }),
    );
    const calls: ToolCall[] = [30, 5, 20, 1, 10, 2].map((ms, i) => ({
      id: `c${i}`,
      name: 't',
      arguments: { ms },
    }));
    calls.splice(2, 0, { id: 'bad', name: 'missing', arguments: {} });
    const outcomes = await registry.invokeAll(calls, { concurrency: 2 });
    expect(outcomes.map((o) => o.toolCallId)).toEqual(['c0', 'c1', 'bad', 'c2', 'c3', 'c4', 'c5']);
    expect(outcomes.map((o) => o.result ?? o.status)).toEqual([30, 5, 'not_found', 20, 1, 10, 2]);
    expect(peak).toBe(2);
    expect(await registry.invokeAll([])).toEqual([]);
  });
});
