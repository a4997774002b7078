import type { IncomingMessage } from 'node:http';

import type { JsonBody } from '../http/read-json-body.ts';

/**
 * `readJsonBody` of `rxagent/http` for a Node request: reads a body of at most `limit` bytes and
 * parses it as JSON (an empty body is `invalid`). A `Content-Length` over the limit is refused before anything is read; a body that
 * grows past it stops being read (the caller answers 413 and closes the connection).
 */
export async function readNodeJsonBody(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<JsonBody> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return { kind: 'too-large', maxBytes: limit };
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
  if (text === undefined) return { kind: 'too-large', maxBytes: limit };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}
