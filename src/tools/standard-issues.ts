import { pointerSegment } from './json-schema.ts';
import type { StandardSchemaV1Issue } from '../core/index.ts';
import type { ToolIssue } from './tool-issue.ts';

const MAX_ISSUES = 20;

/** Turns Standard Schema issues into issues for the model, with JSON-pointer paths. */
export function standardIssues(issues: readonly StandardSchemaV1Issue[]): ToolIssue[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: (issue.path ?? [])
      .map((segment) => `/${pointerSegment(typeof segment === 'object' ? segment.key : segment)}`)
      .join(''),
    message: issue.message.length > 200 ? `${issue.message.slice(0, 200)}…` : issue.message,
  }));
}
