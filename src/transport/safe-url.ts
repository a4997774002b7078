/**
 * `url` as it may appear in a message: origin and path, without `user:pass@`, query or fragment
 * (keys travel in all three). A relative or malformed URL is cut the same way, as text.
 * @param base resolves a relative `url` (a redirect's `Location`)
 * @example endpointOf('https://k:s@gw.test/v1/chat?key=abc') // 'https://gw.test/v1/chat'
 */
export function endpointOf(url: string, base?: string): string {
  try {
    const { origin, pathname } = new URL(url, base);
    if (origin !== 'null') return `${origin}${pathname}`;
  } catch {
    // not absolute: cut it as text below
  }
  return url.replace(/[?#].*$/s, '').replace(/\/\/[^/]*@/, '//');
}

/**
 * `text` with every http(s) URL in it cut to its origin and path (no `user:pass@`, query or
 * fragment): a last guard for messages written by others (the platform's fetch quotes whole URLs).
 * @example withoutUrlSecrets('bad URL https://k:s@gw.test/v1?key=1') // 'bad URL https://gw.test/v1'
 */
export function withoutUrlSecrets(text: string): string {
  return text.replace(/https?:\/\/[^\s"'<>]+/gi, (url) => endpointOf(url));
}
