import { isRecord, type JsonSchemaObject, pointerSegment } from './json-schema.ts';
import { walkSchema } from './schema-walk.ts';

/**
 * Property names refused in tool inputs because they name who acts or on whose behalf (compared
 * after NFKC folding, without case or separators, so `user_id`, `userId`, `UserID`, `user-id`,
 * `USER.ID` and full-width `ｕｓｅｒ＿ｉｄ` are one name). The list is of names that almost always
 * carry an identity; plain words such as `user`, `actor`, `email`, `role` or `owner` also name
 * ordinary data and are allowed. It is a tripwire for schemas that invite the model to say who it
 * acts for, not a proof: a field called `who` or `target` is not caught.
 */
export const IDENTITY_ARGUMENT_NAMES: readonly string[] = Object.freeze([
  'user_id',
  'uid',
  'user_uuid',
  'username',
  'user_name',
  'user_email',
  'login',
  'account_id',
  'account_number',
  'account_no',
  'tenant_id',
  'actor_id',
  'owner_id',
  'principal',
  'principal_id',
  'sub',
  'subject_id',
  'member_id',
  'employee_id',
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
  'current_user',
  'session_user',
  'auth_user',
  'authenticated_user',
]);

const ASCII = /^[ -~]*$/; // printable ASCII, which NFKC leaves as it is
const NOT_ALPHANUMERIC = /[^a-z0-9]/g;

/** `userId`, `user_id`, `USER-ID` → `userid`. */
export function canonicalArgumentName(name: string): string {
  // NFKC first, so full-width and other compatibility look-alikes ('ｕｓｅｒ＿ｉｄ') fold to ASCII;
  // ASCII is unchanged by NFKC, and skipping it there keeps the per-key check of each call cheap.
  const folded = ASCII.test(name) ? name : name.normalize('NFKC');
  return folded.toLowerCase().replace(NOT_ALPHANUMERIC, '');
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

/** The canonical forms of `IDENTITY_ARGUMENT_NAMES` and `extra`, for `findIdentityArgument`/`findIdentityKey`. */
export function identityNameSet(extra: readonly string[] = []): ReadonlySet<string> {
  return new Set([...IDENTITY_ARGUMENT_NAMES, ...extra].map(canonicalArgumentName));
}

/**
 * The first identity-shaped property name declared anywhere in `schema` (properties, required,
 * dependentRequired, dependencies, propertyNames enum/const, at any depth), or `undefined`.
 * @param forbidden canonical names to refuse (`identityNameSet()`)
 */
export function findIdentityArgument(
  schema: JsonSchemaObject,
  forbidden: ReadonlySet<string> = identityNameSet(),
): DeclaredName | undefined {
  let found: DeclaredName | undefined;
  walkSchema(schema, (node, pointer) => {
    if (found) return;
    const names: DeclaredName[] = [];
    declaredNames(node, pointer, names);
    found = names.find((n) => forbidden.has(canonicalArgumentName(n.name)));
  });
  return found;
}
