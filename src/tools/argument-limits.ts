import { pointerSegment } from './json-schema.ts';
import type { ToolIssue } from './tool-issue.ts';
import { utf8Length } from './utf8-length.ts';

/** Size limits on a tool call's arguments, checked before any schema runs. */
export interface ArgumentLimits {
  /** Longest string (value or key), in UTF-8 bytes. */
  maxArgBytes: number;
  /** Deepest nesting of objects and arrays (the arguments object is depth 1). */
  maxDepth: number;
  /** Largest total size of the arguments' JSON text, in UTF-8 bytes (strings exact, numbers as 8). */
  maxTotalBytes: number;
}

const MAX_ISSUES = 20;

// Module-level functions over one state object: no closures are allocated per call.
interface Walk {
  limits: ArgumentLimits;
  issues: ToolIssue[];
  path: string[];
  total: number;
  over: boolean;
}

function add(walk: Walk, message: string, where?: string): void {
  if (walk.issues.length >= MAX_ISSUES) return;
  walk.issues.push({ path: where ?? walk.path.map((p) => `/${pointerSegment(p)}`).join(''), message });
}

function overTotal(walk: Walk): boolean {
  if (!walk.over && walk.total > walk.limits.maxTotalBytes) {
    walk.over = true;
    add(walk, `the arguments are over the limit of ${walk.limits.maxTotalBytes} bytes in total`, '');
  }
  return walk.over;
}

function visitString(walk: Walk, text: string, what: string): void {
  const bytes = utf8Length(text);
  walk.total += bytes + 2;
  if (bytes > walk.limits.maxArgBytes)
    add(walk, `${what} is ${bytes} bytes, over the limit of ${walk.limits.maxArgBytes}`);
}

function visit(walk: Walk, value: unknown, depth: number): void {
  if (overTotal(walk)) return;
  if (typeof value === 'string') visitString(walk, value, 'string');
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) add(walk, 'must be a finite number');
    walk.total += 8;
  } else if (typeof value === 'boolean') walk.total += 5;
  else if (value === null) walk.total += 4;
  else if (typeof value !== 'object') add(walk, 'must be a JSON value');
  else if (depth > walk.limits.maxDepth) add(walk, `nesting is deeper than ${walk.limits.maxDepth} levels`);
  else if (Array.isArray(value)) visitArray(walk, value, depth);
  else if (isPlainObject(value)) visitObject(walk, value as Record<string, unknown>, depth);
  else add(walk, 'must be a JSON value');
}

function visitArray(walk: Walk, value: readonly unknown[], depth: number): void {
  walk.total += 2;
  for (let i = 0; i < value.length && !walk.over; i++) {
    walk.path.push(String(i));
    visit(walk, value[i], depth + 1);
    walk.path.pop();
    walk.total += 1;
  }
}

function visitObject(walk: Walk, value: Record<string, unknown>, depth: number): void {
  walk.total += 2;
  for (const key of Object.keys(value)) {
    if (walk.over) return;
    walk.path.push(key);
    if (key === '__proto__') add(walk, 'is not an allowed field name');
    visitString(walk, key, 'field name');
    visit(walk, value[key], depth + 1);
    walk.path.pop();
    walk.total += 2;
  }
}

/**
 * Checks that `args` is a JSON object within the limits: every string and key at most `maxArgBytes`
 * UTF-8 bytes, nesting at most `maxDepth`, JSON size at most `maxTotalBytes`, only JSON values
 * (no `undefined`, functions, non-finite numbers or class instances) and no `__proto__` key.
 * Returns the issues found (at most 20), empty when there are none. Runs before ajv and the
 * validator, so they never see oversized input (no regular expression runs on a huge string).
 */
export function checkArgumentLimits(args: unknown, limits: ArgumentLimits): ToolIssue[] {
  if (!isPlainObject(args)) return [{ path: '', message: 'the arguments must be a JSON object' }];
  const walk: Walk = { limits, issues: [], path: [], total: 0, over: false };
  visit(walk, args, 1);
  overTotal(walk);
  return walk.issues;
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
