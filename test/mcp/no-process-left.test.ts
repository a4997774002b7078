import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectMcp } from '../../src/mcp/index.ts';
import { waitFor } from './reference-servers.ts';

const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-2025-server.mjs', import.meta.url));
const DAEMON = fileURLToPath(new URL('./fixtures/daemon-server.mjs', import.meta.url));

/** Pids of live (not zombie) processes whose command line holds `tag`. */
function running(tag: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(tag) && !/^\s*\d+\s+Z/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

function killAll(tag: string): void {
  for (const pid of running(tag)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
}

describe('no server process survives (M4, m1)', () => {
  it('close() while a crashed server is being restarted ends the one being started', async () => {
    const tag = `rxagent-tag-${randomUUID()}`;
    // Starts slowly (700 ms before it reads stdin) and ignores the end of stdin.
    const slow = `setTimeout(() => import(${JSON.stringify(pathToFileURL(MINIMAL).href)}), 700);`;
    const client = await connectMcp({
      name: 'slow',
      command: process.execPath,
      args: ['--input-type=module', '-e', slow, 'x', 'normal', 'ignore-eof', tag],
      versionNegotiation: 'legacy',
      restart: { initialDelayMs: 10 },
    });
    try {
      const first = client.pid as number;
      process.kill(-first, 'SIGKILL');
      await waitFor(() => running(tag).some((pid) => pid !== first), 10_000);
      expect(client.status).toBe('restarting');
      await client.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(running(tag)).toEqual([]);
    } finally {
      killAll(tag);
    }
  });

  it('close() ends a helper the server moved out of its process group (setsid)', async () => {
    const tag = `rxagent-tag-${randomUUID()}`;
    const client = await connectMcp({
      name: 'daemon',
      command: process.execPath,
      args: [DAEMON, tag],
      versionNegotiation: 'legacy',
    });
    try {
      await waitFor(() => running(tag).length === 2, 10_000);
      await client.close();
      await waitFor(() => running(tag).length === 0, 3_000);
    } finally {
      killAll(tag);
    }
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`a host killed by ${signal} takes a server that ignores end-of-stdin with it`, async () => {
      const tag = `rxagent-tag-${randomUUID()}`;
      const index = pathToFileURL(fileURLToPath(new URL('../../src/mcp/index.ts', import.meta.url))).href;
      const host = `import { connectMcp } from ${JSON.stringify(index)};
        const client = await connectMcp({ name: 'stubborn', command: process.execPath, args: ${JSON.stringify([MINIMAL, 'normal', 'ignore-eof', tag])} });
        console.log(client.pid);
        setInterval(() => {}, 1000);`;
      const child = spawn(
        process.execPath,
        ['--conditions=rxagent-source', '--input-type=module', '-e', host],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
      try {
        await waitFor(() => /\d+\n/.test(out), 15_000);
        const servers = () => running(tag).filter((pid) => pid !== child.pid);
        expect(servers()).toHaveLength(1);
        child.kill(signal);
        const [, how] = (await once(child, 'exit')) as [number | null, string | null];
        expect(how).toBe(signal);
        await waitFor(() => servers().length === 0, 5_000);
      } finally {
        child.kill('SIGKILL');
        killAll(tag);
      }
    });
  }
});
