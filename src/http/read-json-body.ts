import { RxAgentError } from '../core/index.ts';

/**
 * A request's JSON body, read up to `maxBytes`: a body said (`content-length`) or found to be
 * larger is refused as soon as that is known, without reading the rest.
 * @throws RxAgentError `body_too_large` above `maxBytes`; `invalid_input` for a body that is not JSON
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const tooLarge = () => new RxAgentError(`The body is larger than ${maxBytes} bytes`, 'body_too_large');
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  if (reader) {
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      size += part.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(part.value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch (error) {
    throw new RxAgentError('The body is not JSON', 'invalid_input', { cause: error });
  }
}
