import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidSessionIdError,
  type Message,
  SessionConflictError,
  SessionCorruptError,
  SessionStoreError,
  assistant,
  textOf,
  user,
} from '../../src/core/index.ts';
import type { SessionStore, SessionStoreOptions } from '../../src/sessions/index.ts';
import { expectNothingLostAcrossDrop } from './expect-nothing-lost.ts';
import { fixtureMessages } from './fixture-messages.ts';
import type { StoreSpec } from './store-from-spec.ts';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./append-worker.ts', import.meta.url));

/** A store under test: how to open it, how a child process opens it, how to break its connection. */
export interface ContractTarget {
  /** A store on this suite's namespace (shared by every call), with the given clock and TTL. */
  open(options?: SessionStoreOptions): SessionStore;
  /** How a child process opens the same store; absent for stores one process owns (memory). */
  spec?: StoreSpec;
  /** A store whose connection `cut()` drops, as a server restart or a killed backend would. */
  droppable?(): Promise<{ store: SessionStore; cut(): Promise<void>; close(): Promise<void> }>;
  /** A store pointed at a server that is not there (a closed loopback port). */
  unreachable?(): SessionStore & { close?(): Promise<void> };
  /** Overwrites the stored text of message `position` of session `id` in the backend itself. */
  corrupt?(id: string, position: number, text: string): Promise<void>;
  /** Ends every connection `open` made. */
  close(): Promise<void>;
}

const hostileIds = [
  '',
  '../etc/passwd',
  'a/b',
  'a\\b',
  '.',
  '..',
  'x'.repeat(129),
  'a b',
  'a\0b',
  'é',
  'a:b',
  '*',
];

function texts(messages: readonly Message[]): string[] {
  return messages.map((entry) => textOf(entry.content));
}

/**
 * The one contract every `SessionStore` passes (Keyv's test-suite idea): round-trip, versions,
 * conflicts under concurrency (across two processes when the store allows), TTL and prune,
 * hostile ids, and dropped connections.
 */
export function sessionStoreContract(name: string, setup: () => Promise<ContractTarget>): void {
  describe(`${name} session store contract`, () => {
    let target: ContractTarget;
    let store: SessionStore;
    const fresh = () => `s-${randomUUID()}`;

    beforeAll(async () => {
      target = await setup();
      store = target.open();
    });
    afterAll(async () => {
      await target?.close();
    });

    it('returns null for a session that does not exist', async () => {
      expect(await store.get(fresh())).toBeNull();
    });

    it('round-trips every kind of message exactly, frozen', async () => {
      const id = fresh();
      const sent = fixtureMessages();
      const appended = await store.append(id, sent, { metadata: { title: 'Weather', tags: ['a'], n: 1.5 } });
      const read = await store.get(id);
      // An append returns the head only: its messages are not read back.
      expect(appended).not.toHaveProperty('messages');
      expect(appended).toEqual({
        id,
        version: 1,
        messageCount: sent.length,
        metadata: { title: 'Weather', tags: ['a'], n: 1.5 },
        createdAt: read!.createdAt,
        updatedAt: read!.updatedAt,
      });
      expect(Object.isFrozen(appended)).toBe(true);
      expect(read!.messages).toEqual(sent);
      expect(read!.metadata).toEqual({ title: 'Weather', tags: ['a'], n: 1.5 });
      expect(read!.version).toBe(1);
      expect(read!.id).toBe(id);
      expect(Object.isFrozen(read!.messages)).toBe(true);
      for (const entry of read!.messages) expect(Object.isFrozen(entry)).toBe(true);
      const image = read!.messages[1]!.content[1] as unknown as { data: unknown };
      expect(image.data).toBeInstanceOf(Uint8Array);
      expect((read!.messages[1]!.content[2] as unknown as { url: unknown }).url).toBeInstanceOf(URL);
      expect(new Date(read!.createdAt).toISOString()).toBe(read!.createdAt);
    });

    it('keeps a __proto__ key in metadata and tool arguments as data', async () => {
      const id = fresh();
      const hostile = JSON.parse('{"__proto__":{"polluted":true},"ok":1}') as Record<string, unknown>;
      await store.append(id, [assistant('', [{ id: 'c', name: 't', arguments: hostile }])], {
        metadata: hostile,
      });
      const read = await store.get(id);
      expect(read!.metadata).toEqual(hostile);
      expect(Object.keys(read!.metadata)).toEqual(['__proto__', 'ok']);
      expect(read!.messages[0]!.toolCalls![0]!.arguments).toEqual(hostile);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('keeps what was appended, not what the caller changes afterwards', async () => {
      const id = fresh();
      const part = { type: 'text' as const, text: 'original' };
      const metadata = { nested: { n: 1 } };
      await store.append(id, [user([part])], { metadata });
      part.text = 'changed';
      metadata.nested.n = 2;
      const read = await store.get(id);
      expect(textOf(read!.messages[0]!.content)).toBe('original');
      expect(read!.metadata).toEqual({ nested: { n: 1 } });
    });

    it('appends in order, versions by one, merges metadata and removes keys set to undefined', async () => {
      const id = fresh();
      await store.append(id, [user('one')], { metadata: { a: 1, b: 2 } });
      await store.append(id, [], { expectedVersion: 1, metadata: { b: undefined, c: { d: [1] } } });
      const last = await store.append(id, [user('two'), user('three')], { expectedVersion: 2 });
      expect(last.version).toBe(3);
      expect(last.messageCount).toBe(3);
      expect(last.metadata).toEqual({ a: 1, c: { d: [1] } });
      const { messages, ...head } = (await store.get(id))!;
      expect(texts(messages)).toEqual(['one', 'two', 'three']);
      expect({ ...head, messageCount: messages.length }).toEqual(last);
    });

    it('rejects a stale expectedVersion with SessionConflictError and writes nothing', async () => {
      const id = fresh();
      await store.append(id, [user('first')]);
      const error = await store
        .append(id, [user('lost')], { expectedVersion: 0, metadata: { x: 1 } })
        .catch((e: unknown) => e);
      expect(SessionConflictError.is(error)).toBe(true);
      expect(error).toMatchObject({ sessionId: id, expectedVersion: 0, actualVersion: 1 });
      const fromTheFuture = await store
        .append(id, [user('lost')], { expectedVersion: 5 })
        .catch((e: unknown) => e);
      expect(fromTheFuture).toBeInstanceOf(SessionConflictError);
      const read = await store.get(id);
      expect(texts(read!.messages)).toEqual(['first']);
      expect(read!.metadata).toEqual({});
      expect(read!.version).toBe(1);
    });

    it('rejects bad input with typed errors before writing anything', async () => {
      const id = fresh();
      await expect(store.append(id, [user('x')], { expectedVersion: -1 })).rejects.toBeInstanceOf(RangeError);
      await expect(store.append(id, [user('x')], { expectedVersion: 1.5 })).rejects.toBeInstanceOf(
        RangeError,
      );
      const unstorable = [
        user('x'),
        { role: 'user', content: 'y', metadata: { f: () => 1 } } as unknown as Message,
      ];
      await expect(store.append(id, unstorable)).rejects.toBeInstanceOf(TypeError);
      expect(await store.get(id)).toBeNull();
    });

    it('rejects hostile ids with InvalidSessionIdError on every method', async () => {
      for (const id of hostileIds) {
        await expect(store.get(id)).rejects.toBeInstanceOf(InvalidSessionIdError);
        await expect(store.append(id, [user('x')])).rejects.toBeInstanceOf(InvalidSessionIdError);
        await expect(store.delete(id)).rejects.toBeInstanceOf(InvalidSessionIdError);
      }
      expect(await store.get('A-z_0-9'.padEnd(128, 'x'))).toBeNull();
    });

    it('deletes a session; a later append starts again at version 1', async () => {
      const id = fresh();
      await store.append(id, [user('old')], { metadata: { k: 1 } });
      await store.delete(id);
      await store.delete(id);
      expect(await store.get(id)).toBeNull();
      const again = await store.append(id, [user('new')], { expectedVersion: 0 });
      expect(again).toMatchObject({ version: 1, metadata: {}, messageCount: 1 });
      expect(texts((await store.get(id))!.messages)).toEqual(['new']);
    });

    it('expires sessions after ttlMs on read, restarts them on append, and prunes old ones', async () => {
      let clock = 1_000_000_000_000;
      const timed = target.open({ ttlMs: 60_000, now: () => clock });
      const [kept, expired] = [fresh(), fresh()];
      await timed.append(expired, [user('old')]);
      clock += 30_000;
      await timed.append(kept, [user('recent')]);
      clock += 30_001;
      expect(await timed.get(expired)).toBeNull();
      expect(texts((await timed.get(kept))!.messages)).toEqual(['recent']);
      const restarted = await timed.append(expired, [user('anew')], { expectedVersion: 0 });
      expect(restarted).toMatchObject({ version: 1, messageCount: 1 });
      expect(texts((await timed.get(expired))!.messages)).toEqual(['anew']);
      clock += 20_000;
      // `kept` was last updated 50 s ago, `expired` 20 s ago: only `kept` is older than 40 s.
      expect(await timed.prune(40_000)).toBeGreaterThanOrEqual(1);
      expect(await timed.get(kept)).toBeNull();
      expect(await timed.get(expired)).not.toBeNull();
    });

    it('refuses to append what is not a message, writing nothing', async () => {
      const id = fresh();
      await store.append(id, [user('kept')]);
      for (const bad of [{ role: 'wizard', content: 42 }, 'hello', { role: 'tool', content: 'no call id' }]) {
        await expect(store.append(id, [bad as unknown as Message])).rejects.toBeInstanceOf(TypeError);
      }
      const read = await store.get(id);
      expect(read!.version).toBe(1);
      expect(texts(read!.messages)).toEqual(['kept']);
    });

    it('reads stored data that is not a message as SessionCorruptError, never as a message', async (context) => {
      if (!target.corrupt) {
        context.skip();
        return;
      }
      for (const text of ['garbage{', 'null', '"hello"', '{"role":"wizard","content":42}', '[1,2]']) {
        const id = fresh();
        await store.append(id, [user('fine'), user('to be broken')]);
        await target.corrupt(id, 1, text);
        const error = await store.get(id).catch((e: unknown) => e);
        expect(SessionCorruptError.is(error), `${text}: ${String(error)}`).toBe(true);
        expect(SessionStoreError.is(error)).toBe(true);
        expect(error).toMatchObject({ sessionId: id, position: 1, code: 'session_corrupt' });
      }
    });

    it('loses and duplicates nothing with 50 concurrent appenders', async () => {
      const id = fresh();
      const expected: string[] = [];
      if (target.spec) {
        const results = await Promise.all(
          ['p1', 'p2'].map(async (tag) => {
            const input = { spec: target.spec, id, tag, appenders: 25, appendsEach: 2 };
            const { stdout } = await run(
              process.execPath,
              ['--conditions=rxagent-source', worker, JSON.stringify(input)],
              {
                timeout: 120_000,
              },
            );
            return JSON.parse(stdout) as { conflicts: number };
          }),
        );
        expect(results).toHaveLength(2);
        for (const tag of ['p1', 'p2'])
          for (let i = 0; i < 25; i += 1) expected.push(`${tag}-${i}-0`, `${tag}-${i}-1`);
      } else {
        await Promise.all(
          Array.from({ length: 50 }, async (_, i) => {
            for (let k = 0; k < 2; k += 1) {
              for (;;) {
                const current = await store.get(id);
                const ok = await store
                  .append(id, [user(`m-${i}-${k}`)], { expectedVersion: current?.version ?? 0 })
                  .catch((e: unknown) => (SessionConflictError.is(e) ? null : Promise.reject(e)));
                if (ok) break;
              }
            }
          }),
        );
        for (let i = 0; i < 50; i += 1) expected.push(`m-${i}-0`, `m-${i}-1`);
      }
      const read = await store.get(id);
      expect(read!.version).toBe(100);
      expect(texts(read!.messages).sort()).toEqual(expected.sort());
    }, 180_000);

    it('fails with SessionStoreError when its server is unreachable', async (context) => {
      if (!target.unreachable) {
        context.skip();
        return;
      }
      const lost = target.unreachable();
      try {
        await expect(lost.get(fresh())).rejects.toBeInstanceOf(SessionStoreError);
        await expect(lost.append(fresh(), [user('x')])).rejects.toBeInstanceOf(SessionStoreError);
      } finally {
        await lost.close?.();
      }
    }, 60_000);

    it('keeps every acknowledged append when the connection drops mid-way, failing the rest with typed errors', async (context) => {
      if (!target.droppable) {
        context.skip();
        return;
      }
      const { store: fragile, cut, close } = await target.droppable();
      try {
        await expectNothingLostAcrossDrop(fragile, store, cut);
      } finally {
        await close();
      }
    }, 60_000);
  });
}
