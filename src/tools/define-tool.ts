import { ForbiddenToolArgumentError, type InferSchemaOutput, type StandardSchemaV1 } from '../core/index.ts';
import { findIdentityArgument } from './identity-names.ts';
import { deriveInputSchema } from './input-json-schema.ts';
import type { JsonSchemaObject } from './json-schema.ts';
import { assertLinearPatterns } from './linear-patterns.ts';
import { strictTool } from './strict-tool.ts';
import type { Tool, ToolDefinition } from './tool.ts';
import { assertToolName } from './tool-name.ts';

/**
 * Defines a tool: checks its name, derives the strict JSON Schema sent to models (unknown fields
 * refused at every depth, `strictTool`) and refuses identity-shaped arguments. Throws
 * `InvalidToolNameError`, `InvalidToolSchemaError` (also for a `pattern` the linear-time engine
 * cannot run) or `ForbiddenToolArgumentError`.
 * @example
 * const getWeather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city.',
 *   input: z.object({ city: z.string() }),
 *   execute: async ({ city }) => ({ city, tempC: 18 }),
 * });
 */
export function defineTool<S extends StandardSchemaV1, Result>(
  definition: ToolDefinition<S, InferSchemaOutput<S>, Result>,
): Tool<InferSchemaOutput<S>, Result>;
export function defineTool<Result>(
  definition: ToolDefinition<JsonSchemaObject, Record<string, unknown>, Result>,
): Tool<Record<string, unknown>, Result>;
export function defineTool(
  definition: ToolDefinition<unknown, Record<string, unknown>, unknown>,
): Tool<Record<string, unknown>, unknown> {
  const { name, origin = 'local' } = definition;
  assertToolName(name, origin);
  const { schema, validator } = deriveInputSchema(name, definition.input, definition.inputJsonSchema);
  assertLinearPatterns(name, schema);
  const tool = strictTool({
    name,
    description: definition.description,
    origin,
    parameters: schema,
    validator,
    execute: definition.execute,
    ...(definition.authorize ? { authorize: definition.authorize } : {}),
    ...(definition.needsApproval !== undefined ? { needsApproval: definition.needsApproval } : {}),
    ...(definition.persist ? { persist: definition.persist } : {}),
    ...(definition.toModelContent ? { toModelContent: definition.toModelContent } : {}),
    ...(definition.timeoutMs !== undefined ? { timeoutMs: definition.timeoutMs } : {}),
    ...(definition.maxArgBytes !== undefined ? { maxArgBytes: definition.maxArgBytes } : {}),
    ...(definition.idempotent === true ? { idempotent: true } : {}),
  } as never);
  const identity = findIdentityArgument(tool.parameters);
  if (identity) throw new ForbiddenToolArgumentError(name, identity.name, identity.pointer);
  return tool as Tool<Record<string, unknown>, unknown>;
}
