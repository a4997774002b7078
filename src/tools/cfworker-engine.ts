import { dereference, type OutputUnit, type Schema, Validator } from '@cfworker/json-schema';
import type { JsonSchemaEngineFactory } from './json-schema-engine.ts';
import { checkRefsResolve, checkStrictNode } from './cfworker-strict.ts';
import { linearRegExp } from './linear-regexp.ts';
import { hasUnion } from './has-union.ts';
import { walkSchema } from './schema-walk.ts';
import type { ToolIssue } from './tool-issue.ts';

const MAX_ISSUES = 20;

/** Wrapper errors that only say a subschema failed; the failing leaf follows them. */
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'allOf',
  '$ref',
  'false',
  'additionalItems',
]);

/**
 * `RegExp` while a validation runs: the same linear-time RE2 engine ajv is given (`linearRegExp`).
 * `@cfworker/json-schema` builds its `pattern` and `patternProperties` matchers with
 * `new RegExp(pattern, 'u')` and takes no engine of its own, so the global binding is swapped for
 * the span of one synchronous `validate` call (nothing else runs in between) and restored after.
 */
class LinearRegExp {
  readonly #matcher: { test(text: string): boolean };
  constructor(pattern: string) {
    this.#matcher = linearRegExp(pattern, 'u');
  }
  test(text: string): boolean {
    return this.#matcher.test(text);
  }
}

function withLinearRegExp<T>(run: () => T): T {
  const original = globalThis.RegExp;
  globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return run();
  } finally {
    globalThis.RegExp = original;
  }
}

const pathOf = (location: string) => location.replace(/^#/, '');
const segment = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The schema value an error's `keywordLocation` (`#/a/b`, segments URI-encoded) points at. A `$ref`
 * segment continues in the schema it references (found in `lookup`, by its absolute URI).
 */
function at(schema: unknown, location: string, lookup: Readonly<Record<string, unknown>>): unknown {
  let node = schema;
  for (const raw of pathOf(location).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    const ref = key === '$ref' ? (node as { __absolute_ref__?: unknown }).__absolute_ref__ : undefined;
    node = typeof ref === 'string' ? lookup[ref] : (node as Record<string, unknown>)[key];
  }
  return node;
}

/** ajv's wording for a keyword's failure (so both engines tell the model the same thing). */
function ajvMessage(keyword: string, value: unknown): string | undefined {
  const n = JSON.stringify(value);
  switch (keyword) {
    case 'type':
      return `must be ${Array.isArray(value) ? value.join(',') : String(value)}`;
    case 'enum':
      return Array.isArray(value)
        ? `must be one of ${value.map((v) => JSON.stringify(v)).join(', ')}`
        : undefined;
    case 'const':
      return `must be ${n}`;
    case 'minimum':
      return `must be >= ${n}`;
    case 'maximum':
      return `must be <= ${n}`;
    case 'exclusiveMinimum':
      return `must be > ${n}`;
    case 'exclusiveMaximum':
      return `must be < ${n}`;
    case 'multipleOf':
      return `must be multiple of ${n}`;
    case 'minLength':
      return `must NOT have fewer than ${n} characters`;
    case 'maxLength':
      return `must NOT have more than ${n} characters`;
    case 'minItems':
      return `must NOT have fewer than ${n} items`;
    case 'maxItems':
      return `must NOT have more than ${n} items`;
    case 'minProperties':
      return `must NOT have fewer than ${n} properties`;
    case 'maxProperties':
      return `must NOT have more than ${n} properties`;
    case 'pattern':
      return `must match pattern "${String(value)}"`;
    case 'uniqueItems':
      return 'must NOT have duplicate items';
    default:
      return undefined;
  }
}

function issueOf(unit: OutputUnit, schema: unknown, lookup: Readonly<Record<string, unknown>>): ToolIssue {
  const path = pathOf(unit.instanceLocation);
  const property = /^Property "(.*)" does not match additional properties schema\.$/s.exec(unit.error);
  if (unit.keyword === 'additionalProperties' && property)
    return { path: `${path}/${segment(property[1]!)}`, message: 'is not a known field' };
  const missing = /required property "(.*)"/s.exec(unit.error);
  if (unit.keyword === 'required' && missing)
    return { path: `${path}/${segment(missing[1]!)}`, message: 'is required' };
  return { path, message: ajvMessage(unit.keyword, at(schema, unit.keywordLocation, lookup)) ?? unit.error };
}

function issuesOf(
  errors: readonly OutputUnit[],
  schema: unknown,
  lookup: Readonly<Record<string, unknown>>,
): ToolIssue[] {
  // Wrappers only say that a subschema failed, and the `false` schema an unknown property meets
  // repeats what `additionalProperties` said: the leaves say why (else every error is kept).
  const leaves = errors.filter((error) => !WRAPPERS.has(error.keyword));
  const issues: ToolIssue[] = [];
  const seen = new Set<string>();
  for (const error of leaves.length > 0 ? leaves : errors) {
    const issue = issueOf(error, schema, lookup);
    const key = `${issue.path}\n${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (issues.length === MAX_ISSUES) break;
  }
  return issues;
}

/**
 * The JSON Schema engine for runtimes that forbid code generation (Cloudflare Workers): the
 * interpreter `@cfworker/json-schema` (an optional peer dependency, chosen by the `workerd` and
 * `worker` export conditions), with ajv's strictness: an unknown keyword refuses the schema at
 * registration, nothing is coerced or removed, patterns run in linear time, and `format` is an
 * annotation, as under ajv when no `formats` are given (a registry given `formats` is refused:
 * this engine has no hook to assert them).
 * @example const engine = cfworkerEngine('draft-2020-12', {}); engine.compile(schema).validate(args)
 */
export const cfworkerEngine: JsonSchemaEngineFactory = (dialect, formats) => {
  const custom = Object.keys(formats);
  return {
    compile(schema) {
      if (custom.length > 0)
        throw new Error(
          `asserting the formats ${custom.join(', ')} needs ajv, which cannot run where code generation is forbidden`,
        );
      const copy = structuredClone(schema);
      const refs: { node: Record<string, unknown>; pointer: string }[] = [];
      walkSchema(copy, (node, pointer) => {
        checkStrictNode(node, pointer, dialect);
        if (node.$ref !== undefined) refs.push({ node, pointer });
        // Check each pattern now, as ajv compiles them: one RE2 cannot run refuses the schema.
        if (typeof node.pattern === 'string') linearRegExp(node.pattern, 'u');
        for (const key of Object.keys((node.patternProperties ?? {}) as object)) linearRegExp(key, 'u');
        delete node.format;
      });
      // Draft-07 runs as 2019-09, whose only difference here is that keywords beside a `$ref` apply
      // (under '7' they are skipped): ajv 8 applies them in every dialect.
      // Every error at once (no short circuit), except for a schema with unions (see `hasUnion`).
      const validator = new Validator(
        copy as Schema,
        dialect === 'draft-07' ? '2019-09' : '2020-12',
        hasUnion(copy),
      );
      const lookup = dereference(copy as Schema);
      checkRefsResolve(refs, lookup);
      return {
        validate: (value) => {
          const result = withLinearRegExp(() => validator.validate(value));
          return result.valid ? [] : issuesOf(result.errors, copy, lookup);
        },
        release: () => undefined,
      };
    },
  };
};

/** The engine `ToolRegistry` uses by default where code generation is forbidden. */
export const defaultJsonSchemaEngine: JsonSchemaEngineFactory = cfworkerEngine;
