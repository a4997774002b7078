import type { Redis } from 'ioredis';
import { Observable, Subject } from 'rxjs';
import type { RunCommand, RunControl, SharedRunState } from '../../http/run-control.ts';
import type { RunStatus } from '../../http/runs.ts';

/** The keys of one run besides its stream (one hash slot: the run id is the hash tag). */
export interface RunKeys {
  state: (runId: string) => string;
  watched: (runId: string) => string;
  channel: (runId: string) => string;
}

/** The timings of a Redis run control. */
export interface RunControlTimings {
  /** A running run's state lives this long past its writer's last refresh. */
  leaseMs: number;
  /** An ended run's state lives this long. */
  retainMs: number;
}

const ENDED: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * The `RunControl` of `redisRunEventStore`: each run's state in a hash that lives while its writer
 * refreshes it (`leaseMs`; `retainMs` once ended), a `watched` key each reader refreshes, and a
 * pub/sub channel per run for commands, heard on one subscriber connection per store.
 */
export function redisRunControl(
  client: Redis,
  keys: RunKeys,
  timings: RunControlTimings,
  onError: (error: unknown) => void,
): RunControl & { close(): void } {
  let subscriber: Redis | undefined;
  const heard = new Map<string, Subject<RunCommand>>();
  const listen = (): Redis => {
    if (subscriber) return subscriber;
    const connection = client.duplicate({ connectionName: 'rxagent-run-control' });
    connection.on('error', () => undefined);
    connection.on('message', (channel: string, message: string) => {
      const command = parseCommand(message);
      if (command) heard.get(channel)?.next(command);
    });
    subscriber = connection;
    return connection;
  };
  return {
    setState(runId, state) {
      const ttl = ENDED.has(state.status) ? timings.retainMs : timings.leaseMs;
      const fields = {
        status: state.status,
        pending: JSON.stringify(state.pending),
        owner: state.owner ?? '',
      };
      client.multi().hset(keys.state(runId), fields).pexpire(keys.state(runId), ttl).exec().catch(onError);
    },
    async state(runId) {
      const fields = await client.hgetall(keys.state(runId));
      if (fields.status === undefined) return null;
      const state: SharedRunState = {
        status: fields.status as RunStatus,
        pending: JSON.parse(fields.pending ?? '[]') as string[],
      };
      if (fields.owner) state.owner = fields.owner;
      return state;
    },
    watched: async (runId) => (await client.exists(keys.watched(runId))) === 1,
    // A writer that just started may not listen yet: while its run lives, try again for a moment.
    async send(runId, command) {
      const deadline = Date.now() + timings.leaseMs / 3;
      for (;;) {
        if ((await client.publish(keys.channel(runId), JSON.stringify(command))) > 0) return true;
        if (Date.now() > deadline || (await client.exists(keys.state(runId))) === 0) return false;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    commands: (runId) =>
      new Observable<RunCommand>((observer) => {
        const channel = keys.channel(runId);
        const subject = new Subject<RunCommand>();
        heard.set(channel, subject);
        const connection = listen();
        connection.subscribe(channel).catch(onError);
        const subscription = subject.subscribe(observer);
        return () => {
          subscription.unsubscribe();
          heard.delete(channel);
          connection.unsubscribe(channel).catch(() => undefined);
        };
      }),
    close() {
      subscriber?.disconnect();
    },
  };
}

function parseCommand(message: string): RunCommand | undefined {
  try {
    const value = JSON.parse(message) as Partial<Record<string, unknown>>;
    if (value.type === 'cancel') return { type: 'cancel' };
    if (
      value.type === 'decide' &&
      typeof value.toolCallId === 'string' &&
      typeof value.approved === 'boolean'
    )
      return { type: 'decide', toolCallId: value.toolCallId, approved: value.approved };
  } catch {
    // Not a command of ours: ignored.
  }
  return undefined;
}
