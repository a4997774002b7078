import type { StandardSchemaV1 } from '../core/index.ts';

/**
 * A validator's own Standard JSON Schema (`~standard.jsonSchema[io]`, draft 2020-12), or
 * `undefined` when it offers none: zod classic (4.2 or later) and arktype do, zod/mini does not.
 * Imports no validator library, so the providers (structured output) stay free of zod: 3 MB of heap
 * and ~40 ms on every provider's import. {@link validatorJsonSchema} adds zod's own converter.
 * @param io which side of a transforming schema to describe. @default 'input'
 * @example standardJsonSchema(z.object({ city: z.string() })) // → { type: 'object', properties: … }
 */
export function standardJsonSchema(
  validator: StandardSchemaV1,
  io: 'input' | 'output' = 'input',
): Record<string, unknown> | undefined {
  return validator['~standard'].jsonSchema?.[io]({ target: 'draft-2020-12' });
}
