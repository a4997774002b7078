import { messageOf } from './bedrock-exception.ts';

/**
 * Reads a Bedrock HTTP error: the message from the JSON body's `message`, the error type from
 * the `x-amzn-errortype` header or the body's `__type` /
 * `code`, without the `:http://…` namespace suffix.
 * @example parseBedrockErrorBody('{"message":"Bad"}', new Headers({ 'x-amzn-errortype': 'ValidationException:http://x' }))
 */
export function parseBedrockErrorBody(
  text: string,
  headers?: Headers,
): { message?: string; errorType?: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const message = messageOf(json);
  let type = headers?.get('x-amzn-errortype') ?? undefined;
  if (type === undefined && typeof json === 'object' && json !== null) {
    const value: unknown = Reflect.get(json, '__type') ?? Reflect.get(json, 'code');
    if (typeof value === 'string') type = value;
  }
  const errorType = type?.split(':')[0]?.split('#').at(-1);
  if (message === undefined && !errorType) return undefined;
  return { ...(message === undefined ? {} : { message }), ...(errorType ? { errorType } : {}) };
}
