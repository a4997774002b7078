import { InvalidToolSchemaError } from '../core/index.ts';
import { compileLinear } from './linear-regexp.ts';
import { linearOrRefuse, LinearTestRegExp } from './linear-test-regexp.ts';

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !(value instanceof RegExp);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return isNode(value) && typeof value.then === 'function';
}

/** Lazy getters already wrapped, so a schema registered twice is not wrapped twice. */
const wrappedGetters = new WeakSet<object>();

/**
 * Stands for a pattern RE2 cannot run, found in a schema a `lazy()` getter returned while a value
 * was being checked (too late to refuse the tool): same source and flags, and no value matches,
 * so the value is refused with the pattern's own issue — never a backtracking run, and no throw
 * out of valibot's `parse` or `safeParse`.
 */
class RefusingRegExp extends RegExp {
  override test(): boolean {
    return false;
  }
}

function unknownInternals(toolName: string, what: string): InvalidToolSchemaError {
  return new InvalidToolSchemaError(
    toolName,
    `the valibot schema's regex() actions cannot be moved to the linear-time (RE2) engine (${what}); ` +
      'this valibot version differs from the one rxagent knows, and its backtracking patterns would ' +
      'run on a model’s arguments',
  );
}

/** True when the action's check calls `requirement.test` (as valibot 1's `regex` does). */
function testsRequirement(action: Node, requirement: RegExp): boolean {
  const run = action['~run'];
  if (typeof run !== 'function') return false;
  let called = false;
  Object.defineProperty(requirement, 'test', {
    configurable: true,
    value: () => {
      called = true;
      return true;
    },
  });
  try {
    (run as (dataset: unknown, config: unknown) => unknown).call(action, { typed: true, value: '' }, {});
  } catch {
    return false;
  } finally {
    delete (requirement as { test?: unknown }).test;
  }
  return called;
}

/**
 * Makes every valibot `regex()` action in `schema`, at any depth (object entries, arrays, tuples,
 * unions and variants, records, optionals, pipes), test on the linear-time engine: valibot's
 * `regex` action calls `this.requirement.test(value)`, so the action's `requirement` becomes a
 * `LinearTestRegExp` with the same source and flags (its message and `expects` stay the same).
 * The action objects are changed in place, so the schema the caller holds behaves the same, in
 * linear time, everywhere. A `lazy()` or `lazyAsync()` schema's getter is wrapped so that each
 * schema it returns (or resolves to) is made linear before valibot runs it (the getter may choose
 * by input, so it cannot be walked once ahead); a pattern RE2 cannot run found that way refuses
 * every value (`RefusingRegExp`). valibot's own format actions (`email`, `uuid`…) are its own
 * patterns and are left alone. A pattern RE2 cannot run refuses the tool (`InvalidToolSchemaError`):
 * valibot offers no JSON Schema, so nothing else checks it first. It fails closed: a `regex` action
 * or a `lazy` schema not shaped as valibot 1 makes them (a newer valibot) refuses the tool too.
 * @example linearValibotPatterns('tag', v.object({ id: v.pipe(v.string(), v.regex(/^(a+)+$/)) }))
 */
export function linearValibotPatterns(toolName: string, schema: unknown): void {
  const seen = new WeakSet<object>();
  /** At registration a pattern RE2 cannot run refuses the tool; inside a lazy getter, every value. */
  const visit = (node: unknown, lazily: boolean): void => {
    if (!isNode(node) || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, lazily);
      return;
    }
    if (node.type === 'regex') {
      const requirement = node.requirement;
      if (node.kind !== 'validation') throw unknownInternals(toolName, 'a regex action of another kind');
      if (!(requirement instanceof RegExp))
        throw unknownInternals(toolName, 'a regex action without its RegExp');
      if (!(requirement instanceof LinearTestRegExp) && !(requirement instanceof RefusingRegExp)) {
        const linear = lazily ? lazyLinear(requirement) : linearOrRefuse(toolName, 'valibot', requirement);
        node.requirement = linear;
        if (!lazily && !testsRequirement(node, linear)) {
          throw unknownInternals(toolName, `a regex action that does not test ${String(requirement)}`);
        }
      }
    }
    if (node.type === 'lazy' && node.kind === 'schema') {
      if (typeof node.getter !== 'function')
        throw unknownInternals(toolName, 'a lazy schema without its getter');
      const getter = node.getter as (input: unknown) => unknown;
      if (!wrappedGetters.has(getter)) {
        const linearGetter = (input: unknown): unknown => {
          const inner = getter(input);
          if (!isThenable(inner)) {
            visit(inner, true);
            return inner;
          }
          // lazyAsync: the schema the promise resolves to, before valibot runs it.
          return Promise.resolve(inner).then((resolved) => {
            visit(resolved, true);
            return resolved;
          });
        };
        wrappedGetters.add(linearGetter);
        node.getter = linearGetter;
      }
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      // A RegExp anywhere else than a validation's requirement (valibot's own formats, and regex
      // actions, made linear above) is one this walk does not know how valibot runs.
      if (value instanceof RegExp && !lazily && !(key === 'requirement' && node.kind === 'validation')) {
        throw unknownInternals(toolName, `the pattern ${String(value)} outside a regex action`);
      }
      visit(value, lazily);
    }
  };
  visit(schema, false);
}

/** A pattern met inside a lazy getter: linear, or refusing every value when RE2 cannot run it. */
function lazyLinear(requirement: RegExp): RegExp {
  try {
    compileLinear(requirement.source, requirement.flags);
  } catch {
    return new RefusingRegExp(requirement);
  }
  return new LinearTestRegExp(requirement);
}
