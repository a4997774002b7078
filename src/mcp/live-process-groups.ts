import { descendantsOf } from './process-descendants.ts';

/** Process groups of stdio servers still running, by leader pid. */
const groups = new Set<number>();
let hooked = false;

/** Signals that end the host by default; a detached server group never receives them itself. */
const FATAL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Sends `signal` to every process of the group led by `pid`; a group already gone is no error. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group no longer exists.
  }
}

/** Sends `signal` to each of `pids`; one already gone is no error. */
export function signalProcesses(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function endAll(): void {
  for (const pid of groups) {
    // Helpers a server moved out of its group (setsid) first, while they still have their parent.
    signalProcesses(descendantsOf(pid), 'SIGKILL');
    signalGroup(pid, 'SIGKILL');
  }
  groups.clear();
}

/**
 * A signal the host has no handler of its own for would end it without running `exit` handlers:
 * end the groups, then let the signal do what it does by default. A host that handles the signal
 * itself (a CLI's Ctrl-C that stops a reply) keeps its servers; they end when it exits.
 */
function onFatalSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  endAll();
  for (const each of FATAL_SIGNALS) process.off(each, onFatalSignal);
  hooked = false;
  process.kill(process.pid, signal);
}

/**
 * Remembers a server's process group until `release`: if the host process exits first (the end of
 * its script, `process.exit`, an uncaught exception, or SIGINT/SIGTERM/SIGHUP it does not handle)
 * without closing the client, the group is killed on the way out. A detached group gets no signal
 * from the host's terminal, and a server that ignores the end of its stdin (or a grandchild of an
 * `npx` wrapper) would outlive the host.
 */
export function trackGroup(pid: number): () => void {
  if (!hooked) {
    hooked = true;
    process.once('exit', endAll);
    for (const signal of FATAL_SIGNALS) process.on(signal, onFatalSignal);
  }
  groups.add(pid);
  return () => groups.delete(pid);
}
