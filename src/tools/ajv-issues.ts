import type { ErrorObject } from 'ajv';
import { pointerSegment } from './json-schema.ts';
import type { ToolIssue } from './tool-issue.ts';

const MAX_ISSUES = 20;
const MAX_MESSAGE = 200;

function issueOf(error: ErrorObject): ToolIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty);
      return { path: `${error.instancePath}/${pointerSegment(name)}`, message: 'is not a known field' };
    }
    case 'required':
      return {
        path: `${error.instancePath}/${pointerSegment(String(params.missingProperty))}`,
        message: 'is required',
      };
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues)
        ? params.allowedValues.map((v) => JSON.stringify(v))
        : [];
      return { path: error.instancePath, message: `must be one of ${allowed.join(', ')}` };
    }
    case 'const':
      return { path: error.instancePath, message: `must be ${JSON.stringify(params.allowedValue)}` };
    default:
      return { path: error.instancePath, message: error.message ?? `fails ${error.keyword}` };
  }
}

/** Turns ajv's errors into issues for the model: JSON-pointer path and a short reason, deduplicated. */
export function ajvIssues(errors: readonly ErrorObject[] | null | undefined): ToolIssue[] {
  const seen = new Set<string>();
  const issues: ToolIssue[] = [];
  for (const error of errors ?? []) {
    const issue = issueOf(error);
    if (issue.message.length > MAX_MESSAGE) issue.message = `${issue.message.slice(0, MAX_MESSAGE)}…`;
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (issues.length === MAX_ISSUES) break;
  }
  return issues;
}
