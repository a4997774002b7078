import { trimSlash } from '../shared/index.ts';

/**
 * The base URL of an Ollama server from an `OLLAMA_HOST`-style value, read the way the `ollama`
 * CLI reads it: no scheme means `http` and port 11434 (`0.0.0.0`, `gpu-box:8080`); `http://` or
 * `https://` without a port means 80 / 443; an empty value means `http://127.0.0.1:11434`.
 * A trailing `/api` is dropped, since the endpoints are appended as `/api/...`.
 * @example resolveOllamaHost('gpu-box') // → 'http://gpu-box:11434'
 */
export function resolveOllamaHost(value: string | undefined): string {
  const text = (value ?? '').trim();
  if (text === '') return 'http://127.0.0.1:11434';
  const schemeEnd = text.indexOf('://');
  const scheme = schemeEnd === -1 ? 'http' : text.slice(0, schemeEnd).toLowerCase();
  const rest = schemeEnd === -1 ? text : text.slice(schemeEnd + 3);
  const slash = rest.indexOf('/');
  const hostPort = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? '' : trimSlash(rest.slice(slash));
  const defaultPort = schemeEnd === -1 ? '11434' : scheme === 'https' ? '443' : '80';
  let host = hostPort;
  // A bare IPv6 address (`::1`) has no port; bracket it so a port can follow.
  if (!host.startsWith('[') && host.indexOf(':') !== host.lastIndexOf(':')) host = `[${host}]`;
  if (host === '' || host.startsWith(':')) host = `127.0.0.1${host}`;
  // A port is present after the last ':' outside IPv6 brackets.
  const hasPort = /:\d*$/.test(host) && (!host.startsWith('[') || /\]:\d*$/.test(host));
  const withPort = hasPort ? host.replace(/:$/, `:${defaultPort}`) : `${host}:${defaultPort}`;
  const base = `${scheme}://${withPort}${path}`;
  return base.endsWith('/api') ? base.slice(0, -4) : base;
}
