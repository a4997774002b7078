/** `${NAME}` or `${NAME:-default}`, as Claude Code, Cursor and VS Code configs write them. */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` (and `${NAME:-default}`) with the variable's value from `env`. Returns the
 * name of the first variable that is unset and has no default instead of a string.
 * @example expandVariables('${HOME}/x', { HOME: '/home/me' }) // { value: '/home/me/x' }
 */
export function expandVariables(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): { value: string } | { missing: string } {
  let missing: string | undefined;
  const value = text.replace(VARIABLE, (whole, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined) return found;
    if (fallback !== undefined) return fallback;
    missing ??= name;
    return whole;
  });
  return missing === undefined ? { value } : { missing };
}
