import { toJSONSchema } from 'zod/v4/core';
import type { StandardSchemaV1 } from '../core/index.ts';
import { isRecord } from './json-schema.ts';
import { standardJsonSchema } from './standard-json-schema.ts';

/**
 * The JSON Schema of a Standard Schema validator, or `undefined` when it offers none: its Standard
 * JSON Schema (zod classic 4.2 or later, arktype), else, for a zod schema without one (zod/mini,
 * zod 4.0–4.1), zod's `toJSONSchema(schema, { io })`. Tool inputs use `io: 'input'`: what the model
 * writes is what the validator then reads. The tools' path: the providers use
 * {@link standardJsonSchema} alone and do not load zod.
 * @param io which side of a transforming schema to describe. @default 'input'
 * @example validatorJsonSchema(z.object({ city: z.string() })) // → { type: 'object', properties: … }
 */
export function validatorJsonSchema(
  validator: StandardSchemaV1,
  io: 'input' | 'output' = 'input',
): Record<string, unknown> | undefined {
  const own = standardJsonSchema(validator, io);
  if (own !== undefined) return own;
  if (validator['~standard'].vendor === 'zod' && isRecord(Reflect.get(validator, '_zod'))) {
    return toJSONSchema(validator as unknown as Parameters<typeof toJSONSchema>[0], { io });
  }
  return undefined;
}
