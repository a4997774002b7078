import { readdir, readFile, readlink } from 'node:fs/promises';

const portOf = (address: string): number => Number.parseInt(address.split(':')[1] ?? '', 16);

/**
 * Which of `pids` holds the client end of a TCP connection to 127.0.0.1:`serverPort` from local
 * port `clientPort` (what a server sees as `req.socket.remotePort`), read from Linux's /proc: the
 * socket's inode in /proc/net/tcp, then the process whose file descriptors include it. Undefined
 * when none of them does (the connection closed, or another process holds it).
 */
export async function socketOwner(
  clientPort: number,
  serverPort: number,
  pids: readonly number[],
): Promise<number | undefined> {
  const table = await readFile('/proc/net/tcp', 'utf8');
  const inode = table
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .find((f) => f.length > 9 && portOf(f[1]!) === clientPort && portOf(f[2]!) === serverPort)?.[9];
  if (!inode || inode === '0') return undefined;
  const link = `socket:[${inode}]`;
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === link) return pid;
    }
  }
  return undefined;
}
