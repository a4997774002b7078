import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });

/** One AWS event-stream frame, as Bedrock sends it (with its `p` padding field in events). */
export function frame(
  kind: 'event' | 'exception',
  type: string,
  payload: unknown,
  body = JSON.stringify(payload),
): Uint8Array {
  const headers: MessageHeaders = {
    ':message-type': str(kind),
    [kind === 'event' ? ':event-type' : ':exception-type']: str(type),
    ':content-type': str('application/json'),
  };
  return codec.encode({ headers, body: fromUtf8(body) });
}

/** A generic event-stream `error` message (`:error-code` / `:error-message` headers, empty body). */
export function errorFrame(code: string, message: string): Uint8Array {
  return codec.encode({
    headers: { ':message-type': str('error'), ':error-code': str(code), ':error-message': str(message) },
    body: new Uint8Array(0),
  });
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Encodes a JSON-lines transcript into binary frames. Each line is
 * `{"event": "<eventType>", "payload": {...}}` or `{"exception": "<exceptionType>", "payload": {...}}`.
 */
export function encodeTranscript(transcript: string): Uint8Array {
  const frames: Uint8Array[] = [];
  for (const line of transcript.split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as { event?: string; exception?: string; payload?: unknown };
    if (entry.exception !== undefined) frames.push(frame('exception', entry.exception, entry.payload ?? {}));
    else
      frames.push(frame('event', entry.event ?? '', { ...(entry.payload as object), p: 'abcdefghijklmnop' }));
  }
  return concatBytes(frames);
}

/** Transcript line builders. */
export const ev = (event: string, payload: unknown = {}) => `${JSON.stringify({ event, payload })}\n`;
export const exc = (exception: string, payload: unknown) => `${JSON.stringify({ exception, payload })}\n`;
export const text = (t: string, contentBlockIndex = 0) =>
  ev('contentBlockDelta', { contentBlockIndex, delta: { text: t } });
export const stop = (stopReason: string) => ev('messageStop', { stopReason });
export const meta = (inputTokens: number, outputTokens: number, extra: Record<string, unknown> = {}) =>
  ev('metadata', {
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, ...extra },
    metrics: { latencyMs: 321 },
  });
export const start = ev('messageStart', { role: 'assistant' });
export const blockStop = (contentBlockIndex = 0) => ev('contentBlockStop', { contentBlockIndex });
export const toolStart = (contentBlockIndex: number, toolUseId: string, name: string) =>
  ev('contentBlockStart', { contentBlockIndex, start: { toolUse: { toolUseId, name } } });
export const toolInput = (contentBlockIndex: number, input: string) =>
  ev('contentBlockDelta', { contentBlockIndex, delta: { toolUse: { input } } });
