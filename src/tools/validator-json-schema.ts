import type { StandardSchemaV1 } from '../core/index.ts';

/**
 * The JSON Schema of a Standard Schema validator, or `undefined` when it offers none: its Standard
 * JSON Schema (`~standard.jsonSchema[io]`, draft 2020-12), which zod (from 4.2) and arktype offer.
 * Tool inputs and structured replies use `io: 'input'`:
 * what the model writes is what the validator then reads. No validator library is imported here
 * (zod's `toJSONSchema` used to be: 3 MB of heap and ~40 ms on every provider's import).
 * @param io which side of a transforming schema to describe. @default 'input'
 * @example validatorJsonSchema(z.object({ city: z.string() })) // → { type: 'object', properties: … }
 */
export function validatorJsonSchema(
  validator: StandardSchemaV1,
  io: 'input' | 'output' = 'input',
): Record<string, unknown> | undefined {
  const props = validator['~standard'];
  return props.jsonSchema?.[io]({ target: 'draft-2020-12' });
}
