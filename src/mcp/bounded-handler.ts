import { ProtocolError } from '@modelcontextprotocol/client';

/**
 * `handle` run for at most `max` of a server's requests at once; one more is refused at once with a
 * JSON-RPC error, never queued: a server asking the host for work (sampling spends the host's model,
 * elicitation a person's attention) cannot flood it.
 * @example client.setRequestHandler('sampling/createMessage', bounded(4, 'sampling', handler))
 */
export function bounded<A extends unknown[], R>(
  max: number,
  what: string,
  handle: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  let running = 0;
  return async (...args) => {
    if (running >= max) throw new ProtocolError(-32000, `At most ${max} ${what} requests at once`);
    running++;
    try {
      return await handle(...args);
    } finally {
      running--;
    }
  };
}
