import { isRecord, type JsonSchemaObject } from './json-schema.ts';

/** The schema a local `$ref` (`#`, `#/$defs/Name`, any JSON pointer into `root`) points at. */
export function resolveLocal(root: JsonSchemaObject, ref: string): JsonSchemaObject | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(1).split('/').slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined; // not a pointer (a broken percent escape)
    }
    node = isRecord(node) ? node[key] : undefined;
  }
  return isRecord(node) ? node : undefined;
}
