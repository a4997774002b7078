import { linearIfItCan, linearOrRefuse } from './linear-test-regexp.ts';

/**
 * The source of the function `z.stringFormat(name, regex)` makes of its regex, exactly as zod 4
 * writes it: a user's own function (`(v) => SKU.test(v)`) is never taken for it.
 */
const ZOD_REGEX_TEST = /^\(val\) => fnOrRegex\.test\(val\)$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Makes every zod `.regex()` check in `schema`, at any depth (object shapes, arrays, optionals,
 * unions, records, pipes, lazy schemas), test on the linear-time engine. ajv checks those patterns
 * on RE2 first, but RE2 accepting a value does not make the backtracking `RegExp` fast on it:
 * `(a|a)*c|x` matches `aaa…ax`, and JavaScript tries the first branch at every position in
 * exponential time before it finds the `x`. The check instances are changed in place (their
 * `def.pattern`), so the schema the caller holds behaves the same, in linear time, everywhere.
 * A pattern the engine cannot run (lookahead, lookbehind, backreferences) refuses the tool with an
 * `InvalidToolSchemaError`, here rather than through the tool's JSON Schema: that schema may not
 * carry it (a zod/mini schema, or zod before 4.2, has no Standard JSON Schema to compare an
 * `inputJsonSchema` with). Every other string format's pattern (a custom `z.email({ pattern })`,
 * `z.stringFormat`), and a template literal's combined regex, runs on RE2 too when RE2 can run it;
 * zod's own that it cannot (the email pattern's lookaheads) are left as they are. zod 3 schemas (also `zod/v3`) are walked the same way, through their `_def`.
 * @example linearZodPatterns('lookup', z.object({ id: z.string().regex(/^(a|a)*$/) }))
 */
export function linearZodPatterns(toolName: string, schema: unknown): void {
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (!isRecord(node) || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const zod = node._zod;
    if (!isRecord(zod) || !isRecord(zod.def)) {
      if (isRecord(node._def) && typeof node._def.typeName === 'string') visitV3(node._def);
      return;
    }
    const def = zod.def;
    if (def.check === 'string_format' && def.pattern instanceof RegExp) {
      const pattern =
        def.format === 'regex' ? linearOrRefuse(toolName, 'zod', def.pattern) : linearIfItCan(def.pattern);
      def.pattern = pattern;
      // `z.stringFormat(name, regex)` tests through zod's own function of that regex; a function
      // the user gave (with a `pattern` beside it) is theirs and stays.
      if (typeof def.fn === 'function' && ZOD_REGEX_TEST.test(String(def.fn)))
        def.fn = (value: string) => pattern.test(value);
    }
    // A template literal tests one regex zod builds from its parts (a `.regex()` part's included).
    if (def.type === 'template_literal' && zod.pattern instanceof RegExp)
      zod.pattern = linearIfItCan(zod.pattern);
    visitDef(def);
  };
  /** The schemas a definition holds: lazy ones through their `getter`, an object's through its `shape`. */
  const visitDef = (def: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(def)) {
      if (key === 'getter' && typeof value === 'function') visit((value as () => unknown)());
      else if (key === 'shape') {
        // zod 4 holds an object's shape, zod 3 a function that returns it.
        const shape: unknown = typeof value === 'function' ? (value as () => unknown)() : value;
        if (isRecord(shape)) for (const child of Object.values(shape)) visit(child);
      } else visit(value);
    }
  };
  // zod 3 (and `zod/v3`): a Standard Schema of vendor 'zod' too, with no JSON Schema of its own and
  // its `.regex()` a `{ kind: 'regex', regex }` check, tested with the same `regex.test`.
  const visitV3 = (def: Record<string, unknown>): void => {
    if (Array.isArray(def.checks)) {
      for (const check of def.checks as unknown[]) {
        if (isRecord(check) && check.kind === 'regex' && check.regex instanceof RegExp) {
          check.regex = linearOrRefuse(toolName, 'zod', check.regex);
        }
      }
    }
    visitDef(def);
  };
  visit(schema);
}
