import type { IncomingMessage } from 'node:http';

import type { JsonBody } from '../http/read-json-body.ts';

/**
 * `readJsonBody` of `rxagent/http` for a Node request: reads a body of at most `limit` bytes and
 * parses it as JSON (an empty body is `invalid`). A `Content-Length` over the limit is refused before anything is read; a body that
 * grows past it stops being read (the caller answers 413 and closes the connection).
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export async function readNodeJsonBody(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<JsonBody> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return { kind: 'too-large', maxBytes: limit };
  // Read by events, not `for await`: leaving that loop early destroys the socket, and with it the
  // 413 the caller still has to send.
  const bytes = await new Promise<Buffer | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd).pause();
      resolve(undefined);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
  if (bytes === undefined) return { kind: 'too-large', maxBytes: limit };
  try {
    // Not UTF-8 is not JSON (RFC 8259), as the fetch face's `readJsonBody` reads it: never a
    // replacement character standing in for bytes the client sent.
    return { kind: 'json', value: JSON.parse(UTF8.decode(bytes)) as unknown };
  } catch {
    return { kind: 'invalid' };
  }
}
