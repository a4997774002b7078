import type { Redis } from 'ioredis';
import { defer, merge, Observable, of, retry, Subject, type Subscription, switchMap, timer } from 'rxjs';
import type { RunCommand, RunControl, SharedRunState } from '../../http/run-control.ts';
import { ENDED_STATUSES, type RunStatus } from '../../http/runs.ts';
import { redisActorRuns } from './redis-actor-runs.ts';

/** The keys of one run besides its stream (one hash slot: the run id is the hash tag). */
export interface RunKeys {
  state: (runId: string) => string;
  watched: (runId: string) => string;
  channel: (runId: string) => string;
  /** The set of an actor's running runs (for `admit`). */
  actorRuns: (owner: string) => string;
}

/** The timings of a Redis run control. */
export interface RunControlTimings {
  /** A running run's state lives this long past its writer's last refresh. */
  leaseMs: number;
  /** An ended run's state lives this long. */
  retainMs: number;
}

/**
 * The `RunControl` of `redisRunEventStore`: each run's state in a hash that lives while its writer
 * refreshes it (`leaseMs`; `retainMs` once ended), a `watched` key each reader refreshes, a
 * pub/sub channel per run for commands, heard on one subscriber connection per store, and each
 * actor's running runs (leased like the state) for `maxRunsPerActor` across servers.
 */
export function redisRunControl(
  client: Redis,
  keys: RunKeys,
  timings: RunControlTimings,
  onError: (error: unknown) => void,
): RunControl & {
  renew(runIds: Iterable<string>): void;
  hold(runId: string, state: SharedRunState): void;
  forget(runId: string): void;
  close(): void;
} {
  let subscriber: Redis | undefined;
  const actorRuns = redisActorRuns(client, keys.actorRuns, timings.leaseMs, onError);
  // The last state written of each run still running here: a renewal writes it whole, so a state
  // Redis lost (a restart, an eviction) comes back within a lease.
  const written = new Map<string, SharedRunState>();
  const write = (runId: string, state: SharedRunState, ttl: number) => {
    const fields = { status: state.status, pending: JSON.stringify(state.pending), owner: state.owner ?? '' };
    return client.multi().hset(keys.state(runId), fields).pexpire(keys.state(runId), ttl);
  };
  const heard = new Map<string, Subject<RunCommand>>();
  // Each time the subscriber connection is ready (again): one listener, shared by every run's channel.
  const ready = new Subject<void>();
  const listen = (): Redis => {
    if (subscriber) return subscriber;
    const connection = client.duplicate({ connectionName: 'rxagent-run-control' });
    connection.on('error', () => undefined);
    connection.on('message', (channel: string, message: string) => {
      const command = parseCommand(message);
      if (command) heard.get(channel)?.next(command);
    });
    connection.on('ready', () => ready.next());
    subscriber = connection;
    return connection;
  };
  return {
    setState(runId, state) {
      const ended = ENDED_STATUSES.has(state.status);
      if (ended) {
        written.delete(runId);
        actorRuns.release(runId);
      } else written.set(runId, state);
      write(runId, state, ended ? timings.retainMs : timings.leaseMs)
        .exec()
        .catch(onError);
    },
    /** Writer side: writes the state of these running runs again, for another lease. */
    renew(runIds) {
      for (const runId of runIds) {
        const state = written.get(runId);
        if (state) write(runId, state, timings.leaseMs).exec().catch(onError);
        actorRuns.renew(runId);
      }
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
    admit: (runId, owner, limit) => actorRuns.admit(runId, owner, limit),
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
        const subscription: Subscription = subject.subscribe(observer);
        subscription.add(subscribed(connection, channel, ready, timings.leaseMs, onError).subscribe());
        return () => {
          subscription.unsubscribe();
          heard.delete(channel);
          connection.unsubscribe(channel).catch(() => undefined);
        };
      }),
    /** Writer side: records the state of a run no process leases (a durable run): it lives until ended. */
    hold(runId, state) {
      write(runId, state, timings.retainMs).persist(keys.state(runId)).exec().catch(onError);
    },
    /** Writer side: the run no longer runs here; its state is not renewed. */
    forget(runId) {
      written.delete(runId);
      actorRuns.release(runId);
    },
    close() {
      written.clear();
      subscriber?.disconnect();
    },
  };
}

/**
 * Keeps `channel` subscribed on `connection`: at once, again each time the connection is `ready`
 * (after an outage of any length: a SUBSCRIBE sent while Redis was down fails for good once
 * ioredis gives up on it), and again with backoff (50 ms doubling, at most `capMs`) while an
 * attempt fails. SUBSCRIBE is idempotent, so a channel ioredis resubscribed itself is harmless.
 */
function subscribed(
  connection: Redis,
  channel: string,
  ready: Observable<void>,
  capMs: number,
  onError: (error: unknown) => void,
): Observable<unknown> {
  return merge(of(undefined), ready).pipe(
    switchMap(() =>
      defer(() => connection.subscribe(channel)).pipe(
        retry({
          delay: (error: unknown, attempt) => {
            onError(error);
            return timer(Math.min(50 * 2 ** (attempt - 1), capMs));
          },
        }),
      ),
    ),
  );
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
