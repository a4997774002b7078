/** The option under which {@link httpClient}'s request body text travels, beside ky's own `body`. */
export const BODY_TEXT = 'rxagentBodyText';

/**
 * The `fetch` a model's ky instance calls: `base` (the global `fetch` by default, looked up per
 * request), given the request body's text again as `init.body`.
 *
 * ky hands `fetch` a `Request` it built, whose body is a stream. Given such a `Request` alone,
 * undici builds a copy whose body is piped through an identity `TransformStream`; the first pipe of
 * a process also builds a cross-realm RegExp in a new `vm` context, and all of it sits before the
 * first byte is sent (several milliseconds on a process's first request, some on every request).
 * With the same text as `init.body` the copy takes the string instead and sends it as it is: same
 * method, headers, signal, redirect mode and bytes, none of the stream machinery. ky forwards
 * options it does not know to `fetch` as `init`: the text arrives there under {@link BODY_TEXT}.
 * @param base the `fetch` of the model's options, when given
 */
export function fetchWithBody(base: typeof globalThis.fetch | undefined): typeof globalThis.fetch {
  return (input, init) => {
    const fetch = base ?? globalThis.fetch;
    if (init === undefined || !(BODY_TEXT in init)) return fetch(input, init);
    const { [BODY_TEXT]: text, ...rest } = init as RequestInit & { [BODY_TEXT]?: unknown };
    return fetch(input, typeof text === 'string' ? { ...rest, body: text } : rest);
  };
}
