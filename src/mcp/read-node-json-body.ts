import type { IncomingMessage } from 'node:http';

import type { JsonBody } from '../http/read-json-body.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `readJsonBody` of `rxagent/http` for a Node request: reads a body of at most `limit` bytes and
 * parses it as JSON (an empty body is `invalid`). A `Content-Length` over the limit is refused before anything is read; a body that
 * grows past it stops being read (the caller answers 413 and closes the connection), and so does
 * one still arriving after `timeoutMs` (`too-slow`: 408, the connection closed).
 */
export async function readNodeJsonBody(
  req: IncomingMessage,
  limit = 4 * 1024 * 1024,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<JsonBody> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return { kind: 'too-large', maxBytes: limit };
  // Read by events, not `for await`: leaving that loop early destroys the socket, and with it the
  // 413 the caller still has to send.
  const bytes = await new Promise<Buffer | 'too-large' | 'too-slow'>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (why: 'too-large' | 'too-slow') => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).pause();
      resolve(why);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop('too-large');
    };
    const onEnd = () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    };
    const timer = Number.isFinite(timeoutMs) ? setTimeout(() => stop('too-slow'), timeoutMs) : undefined;
    req
      .on('data', onData)
      .once('end', onEnd)
      .once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
  });
  if (bytes === 'too-large') return { kind: 'too-large', maxBytes: limit };
  if (bytes === 'too-slow') return { kind: 'too-slow', timeoutMs };
  try {
    // Not UTF-8 is not JSON (RFC 8259), as the fetch face's `readJsonBody` reads it: never a
    // replacement character standing in for bytes the client sent.
    return { kind: 'json', value: JSON.parse(UTF8.decode(bytes)) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}
