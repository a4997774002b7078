import { canonicalArgumentName } from './identity-names.ts';
import { pointerSegment } from './json-schema.ts';

// Calls of one tool use the same few keys: remembering their canonical form keeps this check to a
// map lookup per key. Bounded, because keys of open maps are the model's to choose.
const canonical = new Map<string, string>();
const MAX_REMEMBERED = 4096;

function canonicalKey(key: string): string {
  let name = canonical.get(key);
  if (name === undefined) {
    name = canonicalArgumentName(key);
    if (canonical.size >= MAX_REMEMBERED) canonical.clear();
    canonical.set(key, name);
  }
  return name;
}

/** The path (innermost key first) to the first forbidden key below `value`, or `undefined`. */
function search(value: unknown, forbidden: ReadonlySet<string>): PropertyKey[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = search(value[i], forbidden);
      if (found) return (found.push(i), found);
    }
    return undefined;
  }
  for (const key in value) {
    if (forbidden.has(canonicalKey(key))) return [key];
    const found = search((value as Record<string, unknown>)[key], forbidden);
    if (found) return (found.push(key), found);
  }
  return undefined;
}

/**
 * The JSON pointer of the first identity-shaped key anywhere in a call's (schema-valid) arguments,
 * or `undefined`. Declared properties with such names are refused at registration, so a key found
 * here came in through an open map (`additionalProperties`, `patternProperties`, a record): the model
 * tried to say who acts. Run after the size limits, so the walk is bounded.
 * @param forbidden canonical names (`identityNameSet()`)
 */
export function findIdentityKey(args: unknown, forbidden: ReadonlySet<string>): string | undefined {
  const path = search(args, forbidden);
  return path
    ? path
        .reverse()
        .map((segment) => `/${pointerSegment(segment)}`)
        .join('')
    : undefined;
}
