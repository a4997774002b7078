import { canonicalArgumentName } from './identity-names.ts';
import { pointerSegment } from './json-schema.ts';

function search(value: unknown, forbidden: ReadonlySet<string>, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = search(value[i], forbidden, `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const here = `${path}/${pointerSegment(key)}`;
    if (forbidden.has(canonicalArgumentName(key))) return here;
    const found = search(child, forbidden, here);
    if (found !== undefined) return found;
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
  return search(args, forbidden, '');
}
