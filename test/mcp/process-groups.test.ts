import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectMcp } from '../../src/mcp/index.ts';
import { EVERYTHING_BIN, groupAlive, waitFor } from './reference-servers.ts';

/**
 * A stdio server that leaves a daemon in its group: a grandchild with no stdio (it never sees the
 * end of stdin) that runs until killed, then server-everything in the leader itself.
 */
const serverWithDaemon = [
  '--input-type=module',
  '-e',
  `import { spawn } from 'node:child_process';
   spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
   process.argv[2] = 'stdio';
   await import(${JSON.stringify(pathToFileURL(EVERYTHING_BIN).href)});`,
];

const killGroup = (pgid: number) => {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

describe('a stdio server’s process group', () => {
  it('ends with its leader: a crashed server leaves no daemon behind', async () => {
    const client = await connectMcp({
      name: 'daemon',
      command: process.execPath,
      args: serverWithDaemon,
      restart: false,
    });
    const pgid = client.pid as number;
    try {
      process.kill(pgid, 'SIGKILL');
      await waitFor(() => client.status === 'failed', 15_000);
      await waitFor(() => !groupAlive(pgid), 15_000);
    } finally {
      killGroup(pgid);
      await client.close();
    }
  });

  it('ends when the host process exits without closing the client', async () => {
    const index = pathToFileURL(fileURLToPath(new URL('../../src/mcp/index.ts', import.meta.url))).href;
    const host = `import { connectMcp } from ${JSON.stringify(index)};
      const client = await connectMcp({ name: 'daemon', command: process.execPath, args: ${JSON.stringify(serverWithDaemon)} });
      console.log(client.pid);
      process.exit(0);`;
    const child = spawn(
      process.execPath,
      ['--conditions=rxagent-source', '--input-type=module', '-e', host],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    const [code] = (await once(child, 'exit')) as [number | null];
    const pgid = Number(out.trim());
    try {
      expect(code).toBe(0);
      expect(pgid).toBeGreaterThan(0);
      await waitFor(() => !groupAlive(pgid), 15_000);
    } finally {
      if (pgid > 0) killGroup(pgid);
    }
  });
});
