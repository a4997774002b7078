import { readdirSync, readFileSync } from 'node:fs';

/** Each running process's parent, read from Linux's `/proc` (empty where there is none). */
function parents(): Map<number, number> {
  const found = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number.isInteger(ppid)) found.set(Number(entry), ppid);
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}

/**
 * Every live descendant of `pid` (children, their children, …), whatever process group or session
 * it moved to: a server that starts a helper with `setsid` (Node's `detached`) takes it out of the
 * group a signal to the group reaches. Linux only (`/proc`); elsewhere none are found. A process
 * already handed to init (a double fork) has no link back to `pid` and is not found.
 */
export function descendantsOf(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const [child, parent] of parents()) byParent.set(parent, [...(byParent.get(parent) ?? []), child]);
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of byParent.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
