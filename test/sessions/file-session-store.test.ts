import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSessionStore } from '../../src/sessions/index.ts';
import { sessionStoreContract } from './session-store-contract.ts';

sessionStoreContract('file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rxagent-sessions-'));
  return {
    open: (options) => fileSessionStore({ dir, ...options }),
    spec: { kind: 'file', dir },
    corrupt: async (id, position, text) => {
      const path = join(dir, `${id}.json`);
      let seen = -1;
      const lines = (await readFile(path, 'utf8'))
        .split('\n')
        .map((line) => (!line.startsWith('@') && line !== '' && ++seen === position ? text : line));
      await writeFile(path, lines.join('\n'));
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
});
