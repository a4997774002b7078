/** The headers providers put their request id in, in the order they are read. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid'] as const;

/**
 * The provider's id for a request, from `x-request-id` (OpenAI, Azure), `request-id` (Anthropic)
 * or `x-amzn-requestid` (Bedrock); `undefined` when none is present.
 * @example requestIdOf(new Headers({ 'request-id': 'req_1' })) // → 'req_1'
 */
export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value !== null && value !== '') return value;
  }
  return undefined;
}
