import { fileSessionStore, type SessionStore } from '../../src/index.ts';
import { redisSessionStore } from '../../src/stores/redis/index.ts';

/** How a child process opens the same store as its parent test. */
export type StoreSpec = { kind: 'file'; dir: string } | { kind: 'redis'; url: string; prefix: string };

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
    default: {
      const never: never = spec;
      throw new Error(`unknown store ${JSON.stringify(never)}`);
    }
  }
}
