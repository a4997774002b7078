/**
 * Reads newline-delimited JSON (MCP's stdio framing) from `stdout`; the function it returns waits,
 * bounded (`next(ms)`), for the next message.
 * @param timeoutMs how long `next()` waits by default. @default 15_000
 */
export function ndjsonMessages(stdout: NodeJS.ReadableStream, timeoutMs = 15_000) {
  const queue: unknown[] = [];
  let wake: (() => void) | undefined;
  let text = '';
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n')) {
      queue.push(JSON.parse(text.slice(0, nl)));
      text = text.slice(nl + 1);
    }
    wake?.();
  });
  return async (ms = timeoutMs): Promise<unknown> => {
    const until = Date.now() + ms;
    while (queue.length === 0) {
      if (Date.now() > until) throw new Error('no message in time');
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    return queue.shift();
  };
}
