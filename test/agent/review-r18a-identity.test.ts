import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/index.ts';
import { mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import { postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { redisSessionStore } from '../../src/stores/redis/index.ts';
import type { SessionStore } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { dropSessionTables } from '../support/drop-test-data.ts';

describe('R18a-9 (m11 on Redis): runs on one session wait for each other across Redis store objects', () => {
  it('two store objects on one server and prefix: no conflict even with onConflict error', async () => {
    const prefix = `r18a:${randomUUID()}:`;
    const url = 'redis://127.0.0.1:6379';
    const stores = [redisSessionStore({ url, prefix }), redisSessionStore({ url, prefix })];
    try {
      expect(stores[0]?.identity).toBe(stores[1]?.identity);
      const other = redisSessionStore({ url, prefix: `${prefix}other:` });
      expect(other.identity).not.toBe(stores[0]?.identity);
      await other.close();
      const slow = (text: string) => scriptedModel([{ text }], { delayMs: 20 });
      const [a, b] = stores.map(
        (sessions, i) => new Agent({ model: slow(i === 0 ? 'A' : 'B'), sessions, onConflict: 'error' }),
      );
      await Promise.all([a?.chat('1', { sessionId: 's' }), b?.chat('2', { sessionId: 's' })]);
      const session = await stores[0]?.get('s');
      expect(session?.messages.map((m) => m.content).sort()).toEqual(['1', '2', 'A', 'B']);
      await stores[0]?.delete('s');
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});

const sqlStores: [string, (table: string) => SessionStore & { close(): Promise<void> }][] = [
  [
    'PostgreSQL',
    (table) => postgresSessionStore({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', table }),
  ],
  ['MySQL', (table) => mysqlSessionStore({ uri: 'mysql://root@127.0.0.1:3306/test', table })],
];

describe.each(sqlStores)(
  'R18a-9 (m11 on %s): runs wait for each other across store objects',
  (name, open) => {
    it('two store objects on one database and table: no conflict even with onConflict error', async () => {
      const table = `r18a_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const stores = [open(table), open(table)];
      try {
        expect(stores[0]?.identity).toBeDefined();
        expect(stores[0]?.identity).toBe(stores[1]?.identity);
        expect(stores[0]?.identity).not.toContain('@');
        const slow = (text: string) => scriptedModel([{ text }], { delayMs: 20 });
        const [a, b] = stores.map(
          (sessions, i) => new Agent({ model: slow(i === 0 ? 'A' : 'B'), sessions, onConflict: 'error' }),
        );
        await Promise.all([a?.chat('1', { sessionId: 's' }), b?.chat('2', { sessionId: 's' })]);
        const session = await stores[0]?.get('s');
        expect(session?.messages.map((m) => m.content).sort()).toEqual(['1', '2', 'A', 'B']);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
        await dropSessionTables(name as 'PostgreSQL' | 'MySQL', table);
      }
    });
  },
);
