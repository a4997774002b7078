import { readdir, readFile, readlink } from 'node:fs/promises';

const portOf = (address: string): number => Number.parseInt(address.split(':')[1] ?? '', 16);

/**
 * Which of `pids` holds the client end of a TCP connection to 127.0.0.1:`serverPort` (from local
 * port `clientPort`, what a server sees as `req.socket.remotePort`, when given), read from Linux's
 * /proc: the sockets' inodes in /proc/net/tcp, then the process whose file descriptors include
 * one. Undefined when none of them does (the connection closed, or another process holds it).
 */
export async function socketOwner(
  connection: { serverPort: number; clientPort?: number },
  pids: readonly number[],
): Promise<number | undefined> {
  const { serverPort, clientPort } = connection;
  const table = await readFile('/proc/net/tcp', 'utf8');
  const links = new Set(
    table
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter(
        (f) =>
          f.length > 9 &&
          f[9] !== '0' &&
          portOf(f[2]!) === serverPort &&
          (clientPort === undefined || portOf(f[1]!) === clientPort),
      )
      .map((f) => `socket:[${f[9]}]`),
  );
  if (links.size === 0) return undefined;
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      if (links.has(await readlink(`/proc/${pid}/fd/${fd}`).catch(() => ''))) return pid;
    }
  }
  return undefined;
}

/** The children of process `pid` (Linux /proc). */
export async function childrenOf(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(/\s+/).filter(Boolean).map(Number);
}
