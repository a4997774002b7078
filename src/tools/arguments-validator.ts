import type { ValidateFunction } from 'ajv';
import { InvalidToolSchemaError } from '../core/index.ts';
import type { AnyAjv } from './ajv-instance.ts';
import { ajvIssues } from './ajv-issues.ts';
import { type ArgumentLimits, checkArgumentLimits } from './argument-limits.ts';
import { walkSchema } from './schema-walk.ts';
import { standardIssues } from './standard-issues.ts';
import type { StandardSchemaV1Result } from './standard-schema.ts';
import type { AnyTool } from './tool.ts';
import type { ToolIssue } from './tool-issue.ts';

/** The outcome of validating a call's arguments. */
export type ArgumentsValidation =
  { ok: true; value: Record<string, unknown> } | { ok: false; issues: ToolIssue[] };

/** A tool's compiled argument check. */
export interface ArgumentsValidator {
  /** Synchronous unless the tool's Standard Schema validator is asynchronous. */
  validate(args: unknown): ArgumentsValidation | Promise<ArgumentsValidation>;
  /** Drops the compiled schema from ajv's cache (on unregister). */
  release(): void;
}

function fromStandard(result: StandardSchemaV1Result<unknown>): ArgumentsValidation {
  if (result.issues) return { ok: false, issues: standardIssues(result.issues) };
  return { ok: true, value: result.value as Record<string, unknown> };
}

/**
 * Compiles a tool's argument check once, at registration. Per call, three stages run in order and
 * stop at the first that fails:
 * 1. size limits (`checkArgumentLimits`): cheap, and shields the later stages from huge input;
 * 2. ajv against the tool's strict JSON Schema: the structural truth for BOTH kinds of tools. It is
 *    what rejects unknown fields at every depth (zod's plain `z.object` would strip them silently)
 *    and coercion (`"42"` is not a number even for `z.coerce.number()`, whose input schema says
 *    number), and it guarantees that every accepted call matches the schema the model was shown.
 *    A compiled ajv validator costs well under a microsecond for a typical call;
 * 3. the Standard Schema validator, when the input was one: refinements, transforms and defaults
 *    that JSON Schema cannot express, and the typed value `execute` receives.
 * Throws `InvalidToolSchemaError` when ajv refuses the schema in strict mode.
 */
export function compileArgumentsValidator(
  tool: AnyTool,
  ajv: AnyAjv,
  limits: ArgumentLimits,
): ArgumentsValidator {
  walkSchema(tool.parameters, (node) => {
    // Formats not given to the registry stay annotations (2020-12's default) rather than schema errors.
    if (typeof node.format === 'string' && !ajv.formats[node.format]) ajv.addFormat(node.format, true);
  });
  let check: ValidateFunction;
  try {
    check = ajv.compile(tool.parameters);
  } catch (error) {
    throw new InvalidToolSchemaError(tool.name, error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  const validator = tool.validator;
  return {
    validate(args) {
      const limitIssues = checkArgumentLimits(args, limits);
      if (limitIssues.length > 0) return { ok: false, issues: limitIssues };
      if (!check(args)) return { ok: false, issues: ajvIssues(check.errors) };
      if (!validator) return { ok: true, value: args as Record<string, unknown> };
      const result = validator['~standard'].validate(args);
      return result instanceof Promise ? result.then(fromStandard) : fromStandard(result);
    },
    release: () => void ajv.removeSchema(tool.parameters),
  };
}
