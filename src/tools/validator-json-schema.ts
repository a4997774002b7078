import { toJSONSchema } from 'zod/v4/core';
import { isRecord } from './json-schema.ts';
import type { StandardSchemaV1 } from '../core/index.ts';

/**
 * The JSON Schema of a Standard Schema validator, or `undefined` when it offers none: zod 4
 * through `z.toJSONSchema(schema, { io })`, other validators through Standard JSON Schema
 * (`~standard.jsonSchema[io]`, draft 2020-12). Tool inputs and structured replies use
 * `io: 'input'`: what the model writes is what the validator then reads.
 * @param io which side of a transforming schema to describe. @default 'input'
 * @example validatorJsonSchema(z.object({ city: z.string() })) // → { type: 'object', properties: … }
 */
export function validatorJsonSchema(
  validator: StandardSchemaV1,
  io: 'input' | 'output' = 'input',
): Record<string, unknown> | undefined {
  const props = validator['~standard'];
  if (props.vendor === 'zod' && isRecord(Reflect.get(validator, '_zod'))) {
    return toJSONSchema(validator as unknown as Parameters<typeof toJSONSchema>[0], { io });
  }
  return props.jsonSchema?.[io]({ target: 'draft-2020-12' });
}
