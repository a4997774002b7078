/**
 * What a stdio server inherits from the host without being asked: where programs and the home
 * directory are, who the user is, the terminal, the temporary directory and the locale (and the
 * Windows equivalents). Never a credential.
 */
const INHERITED =
  /^(?:PATH|HOME|USER|LOGNAME|SHELL|TERM|TMPDIR|TMP|TEMP|LANG|LANGUAGE|LC_[A-Z]+|TZ|APPDATA|LOCALAPPDATA|HOMEDRIVE|HOMEPATH|USERNAME|USERPROFILE|SYSTEMDRIVE|SYSTEMROOT|WINDIR|COMSPEC|PATHEXT|PROGRAMFILES|PROCESSOR_ARCHITECTURE)$/i;

/**
 * The environment of a stdio server: the host's allowlisted variables (`PATH`, `HOME`, locale, …),
 * then `inheritEnv` (every host variable with `true`, the listed ones with an array), then `env`.
 * @example serverEnvironment({ API_TOKEN: 't' }, ['GITHUB_TOKEN'])
 */
export function serverEnvironment(
  env: Readonly<Record<string, string>> = {},
  inheritEnv: boolean | readonly string[] = false,
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const listed = new Set(Array.isArray(inheritEnv) ? inheritEnv : []);
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined) continue;
    if (inheritEnv === true || listed.has(name) || INHERITED.test(name)) result[name] = value;
  }
  return { ...result, ...env };
}
