import { memorySessionStore } from '../../src/sessions/index.ts';
import { sessionStoreContract } from './session-store-contract.ts';

// One store per suite: `open` with a clock gives a separate store (memory has no shared backend).
const shared = memorySessionStore();
sessionStoreContract('memory', async () => ({
  open: (options) => (options ? memorySessionStore(options) : shared),
  close: async () => undefined,
}));
