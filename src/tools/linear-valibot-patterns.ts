import { linearOrRefuse } from './linear-test-regexp.ts';

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !(value instanceof RegExp);
}

/** Lazy getters already wrapped, so a schema registered twice is not wrapped twice. */
const wrappedGetters = new WeakSet<object>();

/**
 * Makes every valibot `regex()` action in `schema`, at any depth (object entries, arrays, tuples,
 * unions and variants, records, optionals, pipes), test on the linear-time engine: valibot's
 * `regex` action calls `this.requirement.test(value)`, so the action's `requirement` becomes a
 * `LinearTestRegExp` with the same source and flags (its message and `expects` stay the same).
 * The action objects are changed in place, so the schema the caller holds behaves the same, in
 * linear time, everywhere. A `lazy()` schema's getter is wrapped so that each schema it returns is
 * made linear before valibot runs it (the getter may choose by input, so it cannot be walked once
 * ahead). valibot's own format actions (`email`, `uuid`…) are its own patterns and are left alone.
 * A pattern RE2 cannot run refuses the tool (`InvalidToolSchemaError`): valibot offers no JSON
 * Schema, so nothing else checks it first.
 * @example linearValibotPatterns('tag', v.object({ id: v.pipe(v.string(), v.regex(/^(a+)+$/)) }))
 */
export function linearValibotPatterns(toolName: string, schema: unknown): void {
  const seen = new WeakSet<object>();
  const visit = (node: unknown): void => {
    if (!isNode(node) || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node.kind === 'validation' && node.type === 'regex' && node.requirement instanceof RegExp) {
      node.requirement = linearOrRefuse(toolName, 'valibot', node.requirement);
    }
    if (node.kind === 'schema' && node.type === 'lazy' && typeof node.getter === 'function') {
      const getter = node.getter as (input: unknown) => unknown;
      if (!wrappedGetters.has(getter)) {
        const linearGetter = (input: unknown): unknown => {
          const inner = getter(input);
          visit(inner);
          return inner;
        };
        wrappedGetters.add(linearGetter);
        node.getter = linearGetter;
      }
      return;
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(schema);
}
