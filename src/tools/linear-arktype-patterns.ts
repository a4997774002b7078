import { InvalidToolSchemaError } from '../core/index.ts';
import { linearOrRefuse, LinearTestRegExp } from './linear-test-regexp.ts';

/** The parts of an arktype node (`@ark/schema`) this module reads and writes, duck-typed. */
interface ArkNode {
  kind: string;
  rule?: unknown;
  flags?: string;
  instance?: unknown;
  expression?: unknown;
  compiledCondition?: string;
  compiledNegation?: string;
  traverseAllows?: unknown;
  precompilation?: string | undefined;
  references: ArkNode[];
  $?: { finalize?: (node: ArkNode) => unknown; resolvedConfig?: { jitless?: unknown } };
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

/** The tool is refused: this arktype's internals are not the ones the linear patterns rely on. */
function unknownInternals(toolName: string, what: string): InvalidToolSchemaError {
  return new InvalidToolSchemaError(
    toolName,
    `the arktype type's regex constraints cannot be moved to the linear-time (RE2) engine (${what}); ` +
      'this arktype version differs from the one rxagent knows, and its backtracking patterns would ' +
      'run on a model’s arguments',
  );
}

/** The condition compiled code runs for a linear pattern node. */
function conditionOf(index: number): string {
  return `globalThis[Symbol.for(${JSON.stringify(registryKey)})][${index}].test(data)`;
}

/** Points one arktype `pattern` node at the linear-time engine, in both of arktype's modes; its condition. */
function linearPatternNode(toolName: string, node: ArkNode): { condition: string; literal: string } {
  if (!(node.instance instanceof RegExp) || typeof node.rule !== 'string') {
    throw unknownInternals(toolName, 'a pattern node without its RegExp');
  }
  // The regex literal arktype pastes into generated code: `/rule/flags` (its `expression`).
  const literal = String(node.instance);
  if (node.instance instanceof LinearTestRegExp && node.compiledCondition?.includes(registryKey) === true) {
    return { condition: node.compiledCondition, literal };
  }
  const linear = linearOrRefuse(toolName, 'arktype', node.instance);
  const condition = conditionOf(registry.push(linear) - 1);
  node.instance = linear;
  // jitless (no `new Function`, e.g. under a CSP): arktype calls the node's traverseAllows.
  node.traverseAllows = (data: string) => linear.test(data);
  // compiled: the condition is pasted into the code arktype generates for the type.
  node.compiledCondition = condition;
  node.compiledNegation = `!${condition}`;
  return { condition, literal };
}

/**
 * Makes every regex constraint of an arktype type (`/…/`, `string.email`, any node of kind
 * `pattern`, at any depth) test on the linear-time engine. arktype pastes a pattern into the code it
 * generates as a regex literal (`/^(a+)+$/.test(data)`), compiled once when the type is created, so
 * swapping a `RegExp` is not enough: each pattern node's condition is pointed at a
 * `LinearTestRegExp` (same source and flags) in a global registry, then the type's compiled code
 * is generated again (the node's scope `finalize`, which compiles every reference that has no
 * compiled code yet) — always, since code compiled earlier may hold a literal of a pattern node made
 * linear since (for another type sharing it). Pattern nodes are shared by every type that uses the
 * same pattern, so those types keep the same meaning; they run linearly once they are compiled
 * again (registered as a tool). A jitless type runs its pattern nodes' `traverseAllows`, save for
 * nodes compiled elsewhere (a compiled type used in a jitless scope): those are compiled again.
 * A pattern RE2 cannot run refuses the tool
 * (`InvalidToolSchemaError`), and so does a type whose internals are not the ones this relies on
 * (a newer arktype), or whose regenerated code still holds a pattern's regex literal: it fails
 * closed, never leaving a backtracking pattern to run.
 * @example linearArkTypePatterns('tag', type({ id: /^(a+)+$/ }))
 */
export function linearArkTypePatterns(toolName: string, schema: unknown): void {
  if (!isArkRoot(schema)) throw unknownInternals(toolName, 'no node references');
  const references = schema.references;
  const patterns: { condition: string; literal: string }[] = [];
  for (const node of references) {
    if (node.kind === 'pattern') patterns.push(linearPatternNode(toolName, node));
  }
  if (patterns.length === 0) return;
  const jitless = schema.$?.resolvedConfig?.jitless;
  if (jitless !== true && jitless !== false) throw unknownInternals(toolName, 'no scope configuration');
  /** Code (one node's, or a whole type's) that still tests a pattern with its backtracking literal. */
  const stale = (code: unknown) =>
    typeof code === 'string' && patterns.some(({ literal }) => code.includes(`${literal}.test(`));
  const compileAgain = (node: ArkNode): string => {
    if (typeof node.$?.finalize !== 'function') throw unknownInternals(toolName, 'no way to compile again');
    for (const reference of node.references) reference.precompilation = undefined;
    node.$.finalize(node);
    const code: unknown = node.precompilation;
    if (typeof code !== 'string' || stale(code)) {
      throw unknownInternals(toolName, 'the regenerated code still tests a pattern with its literal');
    }
    return code;
  };
  if (!jitless) {
    if (typeof schema.precompilation !== 'string') {
      throw unknownInternals(toolName, 'no compiled code to regenerate');
    }
    const code = compileAgain(schema);
    const missing = patterns.find(({ condition }) => !code.includes(condition));
    if (missing !== undefined) {
      throw unknownInternals(
        toolName,
        `the regenerated code does not test ${missing.literal} on the linear engine`,
      );
    }
  }
  // jitless types have no compiled code: their pattern nodes' traverseAllows is what runs, unless
  // a node in them was compiled elsewhere (a compiled type used in a jitless scope), with the literal.
  for (const node of references) if (stale(node.precompilation)) compileAgain(node);
}
