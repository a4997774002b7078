import { InvalidToolSchemaError, type StandardSchemaV1Result } from '../core/index.ts';
import type { JsonSchemaEngine } from './json-schema-engine.ts';
import { standardIssues } from './standard-issues.ts';
import type { AnyTool } from './tool.ts';
import type { ToolIssue } from './tool-issue.ts';

/** The outcome of checking a result against the tool's output schema. */
export type OutputCheckResult = { ok: true; value: unknown } | { ok: false; issues: ToolIssue[] };

/** A tool's compiled result check, made once at registration (tools with an `outputSchema` only). */
export interface OutputCheck {
  check(result: unknown): OutputCheckResult | Promise<OutputCheckResult>;
  release(): void;
}

function fromStandard(result: StandardSchemaV1Result<unknown>): OutputCheckResult {
  return result.issues
    ? { ok: false, issues: standardIssues(result.issues) }
    : { ok: true, value: result.value };
}

/**
 * Compiles the check of a tool's results, as arguments are checked: a JSON copy of the result
 * against the output JSON Schema (as declared, not made strict), then the Standard Schema
 * validator when `outputSchema` was one (its value is the result). `undefined` for a tool without
 * an output schema. Throws `InvalidToolSchemaError` when the engine refuses the schema.
 */
export function compileOutputCheck(tool: AnyTool, engine: JsonSchemaEngine): OutputCheck | undefined {
  if (!tool.outputSchema) return undefined;
  let schema: ReturnType<JsonSchemaEngine['compile']>;
  try {
    schema = engine.compile(tool.outputSchema);
  } catch (error) {
    const reason = `outputSchema: ${error instanceof Error ? error.message : String(error)}`;
    throw new InvalidToolSchemaError(tool.name, reason, { cause: error });
  }
  const validator = tool.outputValidator;
  return {
    check(result) {
      let copy: unknown;
      try {
        copy = JSON.parse(JSON.stringify(result ?? null)) as unknown;
      } catch {
        return { ok: false, issues: [{ path: '', message: 'the result is not JSON data' }] };
      }
      const issues = schema.validate(copy);
      if (issues.length > 0) return { ok: false, issues };
      if (!validator) return { ok: true, value: result };
      const checked = validator['~standard'].validate(copy);
      return checked instanceof Promise ? checked.then(fromStandard) : fromStandard(checked);
    },
    release: () => schema.release(),
  };
}
