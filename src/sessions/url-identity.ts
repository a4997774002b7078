/**
 * A store's `identity` from the URL it connects to and the name of its data (a table): scheme,
 * host, port and database, never the user or password. `undefined` for a string that is not a URL
 * (a `key=value` connection string): runs then wait per store object.
 * @example urlIdentity('postgres://u:p@db:5432/app', 'rxagent_sessions') // → 'postgres://db:5432/app#rxagent_sessions'
 */
export function urlIdentity(url: string | undefined, name: string): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const { protocol, host, pathname } = new URL(url);
  return host === '' ? undefined : `${protocol}//${host}${pathname}#${name}`;
}
