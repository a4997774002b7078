/** How much of an error body is read: enough for any provider's JSON error, never a whole page stream. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The text of an error response's body, reading at most `maxBytes` (then the body is cancelled), so
 * a server that answers 500 with an endless body cannot grow memory. A read that fails keeps what
 * arrived.
 * @example const text = await readErrorBody(response)
 */
export async function readErrorBody(
  response: Response,
  maxBytes: number = MAX_ERROR_BODY_BYTES,
): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - bytes;
      bytes += value.length;
      if (value.length >= room) {
        text += decoder.decode(value.subarray(0, room));
        await reader.cancel();
        return text;
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    reader.cancel().catch(() => undefined);
  }
  return text + decoder.decode();
}
