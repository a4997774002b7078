import { fileSessionStore, type SessionStore } from '../../src/index.ts';

/** How a child process opens the same store as its parent test. */
export type StoreSpec = { kind: 'file'; dir: string };

/** Opens the store a spec names; `close` ends its connections. */
export async function openStoreFromSpec(
  spec: StoreSpec,
): Promise<{ store: SessionStore; close(): Promise<void> }> {
  switch (spec.kind) {
    case 'file':
      return { store: fileSessionStore({ dir: spec.dir }), close: async () => undefined };
    default: {
      const never: never = spec.kind;
      throw new Error(`unknown store kind ${String(never)}`);
    }
  }
}
