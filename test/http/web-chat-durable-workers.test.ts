/**
 * The durable web chat's worker processes (examples/web-chat/durable-chat.ts): they serve the queue
 * of the settings `durableChat` is given, and `close()` leaves none running, not even one being
 * started again after a crash.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { durableChat } from '../../examples/web-chat/durable-chat.ts';
import type { ChatBackend } from '../../examples/web-chat/web-chat.ts';
import { childrenOf } from '../support/socket-owner.ts';

const redisUrl = 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (at most `timeoutMs`) until `check` holds. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

describe('durableChat: its worker processes', () => {
  const prefix = `web-chat-workers-${randomUUID().slice(0, 8)}:`;
  let chat: ChatBackend | undefined;
  /** This process's children that durableChat started (not any that were there before). */
  let before = new Set<number>();
  const workersNow = async () => (await childrenOf(process.pid)).filter((pid) => !before.has(pid));

  afterAll(async () => {
    await chat?.close();
    for (const pid of await workersNow()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('run the runs of the settings given (not of the environment); close() leaves no worker, even one restarting', async () => {
    // The settings are not in process.env: the workers must get them from durableChat.
    expect(process.env.WEB_CHAT_PREFIX).toBeUndefined();
    before = new Set(await childrenOf(process.pid));
    chat = durableChat({ redisUrl, prefix, lockMs: 2000, stalledIntervalMs: 1000 });
    const runId = await chat.start('Hello', randomUUID(), { id: 'alice' });
    const completed = await until(async () => (await chat!.runs.status(runId)) === 'completed', 60_000);
    expect(completed, 'the run completed on the workers').toBe(true);

    // A worker crashes; the chat closes before its replacement is due (500 ms).
    const workers = await workersNow();
    expect(workers).toHaveLength(2);
    process.kill(workers[0]!, 'SIGKILL');
    await sleep(50);
    await chat.close();
    chat = undefined;
    await sleep(1500);
    expect(await workersNow()).toEqual([]);
  }, 90_000);
});
