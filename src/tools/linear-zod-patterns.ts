import { LinearTestRegExp } from './linear-test-regexp.ts';

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
 * A pattern the engine cannot run is left alone: the tool's schema carries it, and
 * `assertLinearPatterns` refuses the tool first. zod's own formats (email, uuid…) are its own
 * patterns and are left alone too. Schemas other than zod 4 are not walked.
 * @example linearZodPatterns(z.object({ id: z.string().regex(/^(a|a)*$/) }))
 */
export function linearZodPatterns(schema: unknown): void {
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (!isRecord(node) || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const zod = node._zod;
    if (!isRecord(zod) || !isRecord(zod.def)) return;
    const def = zod.def;
    if (def.check === 'string_format' && def.format === 'regex' && def.pattern instanceof RegExp) {
      if (!(def.pattern instanceof LinearTestRegExp)) {
        try {
          def.pattern = new LinearTestRegExp(def.pattern);
        } catch {
          // RE2 cannot run it: the tool is refused by its schema's pattern check
        }
      }
    }
    for (const [key, value] of Object.entries(def)) {
      if (key === 'getter' && typeof value === 'function') visit((value as () => unknown)());
      else if (key === 'shape' && isRecord(value)) for (const child of Object.values(value)) visit(child);
      else visit(value);
    }
  };
  visit(schema);
}
