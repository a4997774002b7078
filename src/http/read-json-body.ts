/** A request body read with a bound: its JSON, or why there is none. */
export type JsonBody =
  { kind: 'json'; value: unknown } | { kind: 'too-large'; maxBytes: number } | { kind: 'invalid' };

/**
 * Reads a request's JSON body, at most `maxBytes` of it: a larger body (by its `content-length`,
 * or by the bytes that arrive when it has none) is not read further, and its stream is cancelled,
 * so a hostile client cannot make the server hold a body of any size. A body that is not JSON
 * (or not UTF-8) is `invalid`.
 * @param request the request whose body to read
 * @param maxBytes the most bytes read
 * @example const body = await readJsonBody(request, 8 * 1024 * 1024); if (body.kind === 'too-large') …
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { kind: 'too-large', maxBytes };
  }
  if (!request.body) return { kind: 'invalid' };
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
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
    reader.releaseLock();
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
