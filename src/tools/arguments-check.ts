import { InvalidToolSchemaError, type StandardSchemaV1Result } from '../core/index.ts';
import { type ArgumentLimits, checkArgumentLimits } from './argument-limits.ts';
import { findIdentityKey } from './identity-keys.ts';
import type { CompiledJsonSchema, JsonSchemaEngine } from './json-schema-engine.ts';
import { standardIssues } from './standard-issues.ts';
import type { AnyTool } from './tool.ts';
import type { ToolIssue } from './tool-issue.ts';

/** The outcome of checking a call's arguments. */
export type ArgumentsCheckResult =
  { ok: true; value: Record<string, unknown> } | { ok: false; issues: ToolIssue[] };

/** A tool's compiled argument check (its schema, limits and validator), made once at registration. */
export interface ArgumentsCheck {
  /** Synchronous unless the tool's Standard Schema validator is asynchronous. */
  check(args: unknown): ArgumentsCheckResult | Promise<ArgumentsCheckResult>;
  /** Drops the compiled schema from ajv's cache (on unregister). */
  release(): void;
}

function fromStandard(result: StandardSchemaV1Result<unknown>): ArgumentsCheckResult {
  if (result.issues) return { ok: false, issues: standardIssues(result.issues) };
  return { ok: true, value: result.value as Record<string, unknown> };
}

/**
 * Compiles a tool's argument check once, at registration. Per call, four stages run in order and
 * stop at the first that fails:
 * 1. size limits (`checkArgumentLimits`): cheap, and shields the later stages from huge input;
 * 2. the JSON Schema engine (ajv; a code-free one in Workers) against the tool's strict JSON Schema: the structural truth for every tool. It is what
 *    rejects unknown fields at every depth (zod's plain `z.object` would strip them silently) and
 *    coercion (`"42"` is not a number even for `z.coerce.number()`), and it guarantees that every
 *    accepted call matches the schema the model was shown;
 * 3. no identity-shaped key anywhere (`findIdentityKey`): declared ones were refused at
 *    registration, so this catches the ones a map let in;
 * 4. the Standard Schema validator, when the input was one: refinements, transforms and defaults
 *    that JSON Schema cannot express, and the typed value `execute` receives.
 * Every stage checks one deep copy of `args` (each property read once), never `args` itself.
 * Throws `InvalidToolSchemaError` when the engine refuses the schema in strict mode.
 */
export function compileArgumentsCheck(
  tool: AnyTool,
  engine: JsonSchemaEngine,
  limits: ArgumentLimits,
  identityNames: ReadonlySet<string>,
): ArgumentsCheck {
  let schema: CompiledJsonSchema;
  try {
    schema = engine.compile(tool.parameters);
  } catch (error) {
    throw new InvalidToolSchemaError(tool.name, error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  const validator = tool.validator;
  return {
    check(args) {
      // Size first, on the call's own object: the cheap shield, before anything copies it.
      const sizeIssues = checkArgumentLimits(args, limits);
      if (sizeIssues.length > 0) return { ok: false, issues: sizeIssues };
      // Then every stage checks one copy, each property read once: a getter or a Proxy in the
      // call's object cannot show the checks one value and `execute` another; and nothing
      // downstream (a validator's pass-through, a hook, `execute`) holds the model's own object,
      // kept in the history as evidence.
      let copy: Record<string, unknown>;
      try {
        copy = structuredClone(args) as Record<string, unknown>;
      } catch {
        return { ok: false, issues: [{ path: '', message: 'the arguments are not plain JSON data' }] };
      }
      const limitIssues = checkArgumentLimits(copy, limits);
      if (limitIssues.length > 0) return { ok: false, issues: limitIssues };
      const issues = schema.validate(copy);
      if (issues.length > 0) return { ok: false, issues };
      const identity = findIdentityKey(copy, identityNames);
      if (identity !== undefined) {
        const message = 'names who acts; the caller is known to the application, do not pass it';
        return { ok: false, issues: [{ path: identity, message }] };
      }
      if (!validator) return { ok: true, value: copy };
      const result = validator['~standard'].validate(copy);
      return result instanceof Promise ? result.then(fromStandard) : fromStandard(result);
    },
    release: () => schema.release(),
  };
}
