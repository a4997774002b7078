import { fileSessionStore, type SessionStore } from '../../src/sessions/index.ts';
import { mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import { postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { redisSessionStore } from '../../src/stores/redis/index.ts';

/** How a child process opens the same store as its parent test. */
export type StoreSpec =
  | { kind: 'file'; dir: string }
  | { kind: 'redis'; url: string; prefix: string }
  | { kind: 'postgres'; connectionString: string; table: string }
  | { kind: 'mysql'; uri: string; table: string };

/** Opens the store a spec names; `close` ends its connections. */
export async function openStoreFromSpec(
  spec: StoreSpec,
): Promise<{ store: SessionStore; close(): Promise<void> }> {
  switch (spec.kind) {
    case 'file':
      return { store: fileSessionStore({ dir: spec.dir }), close: async () => undefined };
    case 'redis': {
      const store = redisSessionStore({ url: spec.url, prefix: spec.prefix });
      return { store, close: () => store.close() };
    }
    case 'postgres': {
      const store = postgresSessionStore({ connectionString: spec.connectionString, table: spec.table });
      return { store, close: () => store.close() };
    }
    case 'mysql': {
      const store = mysqlSessionStore({ uri: spec.uri, table: spec.table });
      return { store, close: () => store.close() };
    }
    default: {
      const never: never = spec;
      throw new Error(`unknown store ${JSON.stringify(never)}`);
    }
  }
}
