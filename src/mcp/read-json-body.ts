import type { IncomingMessage } from 'node:http';

/** A request body: parsed JSON, or not JSON at all. */
export type JsonBody = { type: 'json'; value: unknown } | { type: 'invalid'; value?: undefined };

/** Reads a request body of at most `limit` bytes and parses it as JSON (an empty body is `undefined`). */
export async function readJsonBody(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return { type: 'invalid' };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { type: 'json', value: undefined };
  try {
    return { type: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { type: 'invalid' };
  }
}
