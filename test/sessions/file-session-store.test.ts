import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSessionStore } from '../../src/sessions/index.ts';
import { sessionStoreContract } from './session-store-contract.ts';

sessionStoreContract('file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rxagent-sessions-'));
  return {
    open: (options) => fileSessionStore({ dir, ...options }),
    spec: { kind: 'file', dir },
    close: () => rm(dir, { recursive: true, force: true }),
  };
});
