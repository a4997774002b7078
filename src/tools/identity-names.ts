import { isRecord, type JsonSchemaObject, pointerSegment } from './json-schema.ts';
import { walkSchema } from './schema-walk.ts';

/**
 * Property names refused in tool inputs because they name who acts (compared without case or
 * separators, so `user_id`, `userId`, `UserID`, `user-id` and `USER.ID` are one name). Only names that
 * always mean an identity are listed: `user`, `actor` or `principal` alone also name ordinary data
 * (a film's actor, a loan's principal) and are allowed.
 */
export const IDENTITY_ARGUMENT_NAMES: readonly string[] = Object.freeze([
  'user_id',
  'account_id',
  'tenant_id',
  'actor_id',
  'owner_id',
  'principal_id',
  'customer_id',
  'caller_id',
  'requester_id',
  'requestor_id',
  'org_id',
  'organization_id',
  'organisation_id',
  'on_behalf_of',
  'impersonate',
  'impersonate_user',
  'impersonated_user',
  'acting_user',
  'as_user',
  'run_as',
  'act_as',
]);

/** `userId`, `user_id`, `USER-ID` → `userid`. */
export function canonicalArgumentName(name: string): string {
  // NFKC first, so full-width and other compatibility look-alikes ('ｕｓｅｒ＿ｉｄ') fold to ASCII.
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** A declared property name found in a schema, and where. */
export interface DeclaredName {
  name: string;
  /** JSON pointer into the schema. */
  pointer: string;
}

function declaredNames(node: JsonSchemaObject, pointer: string, out: DeclaredName[]): void {
  if (isRecord(node.properties)) {
    for (const name of Object.keys(node.properties))
      out.push({ name, pointer: `${pointer}/properties/${pointerSegment(name)}` });
  }
  const lists: [string, unknown][] = [['required', node.required]];
  // Key names a map spells out (zod's partialRecord over an enum): the model may send them as fields.
  const keys = node.propertyNames;
  if (isRecord(keys)) {
    lists.push(['propertyNames/enum', keys.enum]);
    if (typeof keys.const === 'string')
      out.push({ name: keys.const, pointer: `${pointer}/propertyNames/const` });
  }
  for (const key of ['dependentRequired', 'dependencies'] as const) {
    const value = node[key];
    if (!isRecord(value)) continue;
    for (const [name, deps] of Object.entries(value)) {
      out.push({ name, pointer: `${pointer}/${key}/${pointerSegment(name)}` });
      lists.push([`${key}/${pointerSegment(name)}`, deps]);
    }
  }
  for (const [key, list] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((name: unknown, i) => {
      if (typeof name === 'string') out.push({ name, pointer: `${pointer}/${key}/${i}` });
    });
  }
}

/**
 * The first identity-shaped property name declared anywhere in `schema` (properties, required,
 * dependentRequired, dependencies, propertyNames enum/const, at any depth), or `undefined`.
 * @param extra more names to refuse, compared the same way
 */
export function findIdentityArgument(
  schema: JsonSchemaObject,
  extra: readonly string[] = [],
): DeclaredName | undefined {
  const forbidden = new Set([...IDENTITY_ARGUMENT_NAMES, ...extra].map(canonicalArgumentName));
  let found: DeclaredName | undefined;
  walkSchema(schema, (node, pointer) => {
    if (found) return;
    const names: DeclaredName[] = [];
    declaredNames(node, pointer, names);
    found = names.find((n) => forbidden.has(canonicalArgumentName(n.name)));
  });
  return found;
}
