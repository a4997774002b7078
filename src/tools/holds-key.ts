/**
 * Whether any object in `value`, at any depth and in any position (a schema keyword or not: a
 * `$ref` may point into `default`, and ajv follows it), has one of `keys` as its own key.
 * @example holdsKey({ properties: { a: { oneOf: [] } } }, ['anyOf', 'oneOf']) // true
 */
export function holdsKey(value: unknown, keys: readonly string[]): boolean {
  const seen = new Set<object>();
  const scan = (node: unknown): boolean => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return false;
    seen.add(node);
    if (!Array.isArray(node) && keys.some((key) => Object.hasOwn(node, key))) return true;
    return Object.values(node).some(scan);
  };
  return scan(value);
}
