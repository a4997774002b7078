import type { IncomingMessage } from 'node:http';

/** A request body: parsed JSON, not JSON at all, or longer than allowed. */
export type JsonBody =
  | { type: 'json'; value: unknown }
  | { type: 'invalid'; value?: undefined }
  | { type: 'too-large'; value?: undefined };

/**
 * Reads a request body of at most `limit` bytes and parses it as JSON (an empty body is
 * `undefined`). A `Content-Length` over the limit is refused before anything is read; a body that
 * grows past it stops being read (the caller answers 413 and closes the connection).
 */
export async function readJsonBody(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<JsonBody> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return { type: 'too-large' };
  // Read by events, not `for await`: leaving that loop early destroys the socket, and with it the
  // 413 the caller still has to send.
  const text = await new Promise<string | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).pause();
      resolve(undefined);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
  if (text === undefined) return { type: 'too-large' };
  if (text.trim() === '') return { type: 'json', value: undefined };
  try {
    return { type: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { type: 'invalid' };
  }
}
