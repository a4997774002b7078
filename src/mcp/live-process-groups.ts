/** Process groups of stdio servers still running, by leader pid. */
const groups = new Set<number>();
let hooked = false;

/** Sends `signal` to every process of the group led by `pid`; a group already gone is no error. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group no longer exists.
  }
}

function endAll(): void {
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
  groups.clear();
}

/**
 * Remembers a server's process group until `release`: if the host process exits first (the end of
 * its script, `process.exit`, an uncaught exception) without closing the client, the group is
 * killed on the way out. A detached group gets no signal from the host's terminal, and a server that
 * ignores the end of its stdin (or a grandchild of an `npx` wrapper) would outlive the host.
 */
export function trackGroup(pid: number): () => void {
  if (!hooked) {
    hooked = true;
    process.on('exit', endAll);
  }
  groups.add(pid);
  return () => groups.delete(pid);
}
