import { linearOrRefuse, type LinearTestRegExp } from './linear-test-regexp.ts';

/** The parts of an arktype node (`@ark/schema`) this module reads and writes, duck-typed. */
interface ArkNode {
  kind: string;
  rule?: string;
  flags?: string;
  instance?: RegExp;
  compiledCondition?: string;
  compiledNegation?: string;
  traverseAllows?: unknown;
  precompilation?: string | undefined;
  references: ArkNode[];
  $?: { finalize?: (node: ArkNode) => unknown };
}

/** Where compiled arktype code finds the linear patterns: a registry shared by every copy of rxagent. */
const registryKey = 'rxagent.linearPatterns';
const registry: LinearTestRegExp[] = ((globalThis as Record<symbol, unknown>)[Symbol.for(registryKey)] ??=
  []) as LinearTestRegExp[];

function isArkRoot(value: unknown): value is ArkNode {
  return (
    (typeof value === 'function' || (typeof value === 'object' && value !== null)) &&
    Array.isArray((value as { references?: unknown }).references) &&
    typeof (value as { kind?: unknown }).kind === 'string'
  );
}

/** Points one arktype `pattern` node at the linear-time engine, in both of arktype's modes. */
function linearPatternNode(toolName: string, node: ArkNode): boolean {
  if (node.instance === undefined || node.rule === undefined) return false;
  if (node.compiledCondition?.includes(registryKey) === true) return false;
  const linear = linearOrRefuse(toolName, 'arktype', node.instance);
  const index = registry.push(linear) - 1;
  const condition = `globalThis[Symbol.for(${JSON.stringify(registryKey)})][${index}].test(data)`;
  node.instance = linear;
  // jitless (no `new Function`, e.g. under a CSP): arktype calls the node's traverseAllows.
  node.traverseAllows = (data: string) => linear.test(data);
  // compiled: the condition is pasted into the code arktype generates for the type.
  node.compiledCondition = condition;
  node.compiledNegation = `!${condition}`;
  return true;
}

/**
 * Makes every regex constraint of an arktype type (`/…/`, `string.email`, any node of kind
 * `pattern`, at any depth) test on the linear-time engine. arktype pastes a pattern into the code it
 * generates as a regex literal (`/^(a+)+$/.test(data)`), compiled once when the type is created, so
 * swapping a `RegExp` is not enough: each pattern node's condition is pointed at a
 * `LinearTestRegExp` (same source and flags) in a global registry, then the type's compiled code
 * is generated again (the node's scope `finalize`, which compiles every reference that has no
 * compiled code yet). Pattern nodes are shared by every type that uses the same pattern, so those
 * types keep the same meaning; they run linearly once they are compiled again (registered as a
 * tool). A pattern RE2 cannot run refuses the tool (`InvalidToolSchemaError`).
 * @example linearArkTypePatterns('tag', type({ id: /^(a+)+$/ }))
 */
export function linearArkTypePatterns(toolName: string, schema: unknown): void {
  if (!isArkRoot(schema)) return;
  const references = schema.references;
  let changed = false;
  let patterns = false;
  for (const node of references) {
    if (node.kind !== 'pattern') continue;
    patterns = true;
    if (linearPatternNode(toolName, node)) changed = true;
  }
  // jitless types have no compiled code: their pattern nodes' traverseAllows is what runs.
  const compiled = schema.precompilation;
  if (!patterns || compiled === undefined || typeof schema.$?.finalize !== 'function') return;
  // Compiled before its patterns were made linear (here, or for another type sharing them).
  if (!changed && compiled.includes(registryKey)) return;
  for (const node of references) node.precompilation = undefined;
  schema.$.finalize(schema);
}
