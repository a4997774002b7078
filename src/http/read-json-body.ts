/** A request body read with a bound: its JSON, or why there is none. */
export type JsonBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'too-large'; maxBytes: number }
  | { kind: 'too-slow'; timeoutMs: number }
  | { kind: 'invalid' };

/**
 * Reads a request's JSON body, at most `maxBytes` of it: a larger body (by its `content-length`,
 * or by the bytes that arrive when it has none) is not read further, and its stream is cancelled,
 * so a hostile client cannot make the server hold a body of any size. A body that is not JSON
 * (or not UTF-8) is `invalid`. With `timeoutMs`, a body still arriving after that long is
 * `too-slow` and its stream is cancelled: a client that sends a byte now and then (slowloris) holds
 * nothing for longer.
 * @param request the request whose body to read
 * @param maxBytes the most bytes read
 * @param timeoutMs the longest the whole body may take to arrive (unbounded by default)
 * @example const body = await readJsonBody(request, 8 * 1024 * 1024); if (body.kind === 'too-large') …
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<JsonBody> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { kind: 'too-large', maxBytes };
  }
  if (!request.body) return { kind: 'invalid' };
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  // A promise race, not a stream: the reader is a web stream read by `await`, and the deadline
  // covers the whole body, not one read.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    if (Number.isFinite(timeoutMs)) timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === 'late') {
        // Not awaited: a source's cancel may itself wait on the slow client.
        reader.cancel().catch(() => undefined);
        return { kind: 'too-slow', timeoutMs };
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { kind: 'too-large', maxBytes };
      }
      parts.push(value);
    }
  } catch {
    return { kind: 'invalid' };
  } finally {
    clearTimeout(timer);
    try {
      reader.releaseLock();
    } catch {
      // A runtime that refuses to release a reader with a read pending: the stream is cancelled.
    }
  }
  try {
    const whole = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      whole.set(part, at);
      at += part.byteLength;
    }
    const text = new TextDecoder('utf-8', { fatal: true }).decode(whole);
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}
