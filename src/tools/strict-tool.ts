import { InvalidToolSchemaError } from '../core/index.ts';
import { deepFreeze } from '../core/deep-freeze.ts';
import { isRecord, type JsonSchemaDialect, type JsonSchemaObject, jsonSchemaDialect } from './json-schema.ts';
import { strictJsonSchema } from './strict-schema.ts';
import type { AnyTool } from './tool.ts';
import { toolAnnotations } from './tool-annotations.ts';
import { assertToolName, type ToolOrigin } from './tool-name.ts';

// Tools this module made: registering them again costs no second normalization. A WeakSet cannot be
// forged from outside, so a hand-built object never skips it.
const strictTools = new WeakSet<object>();

/** A tool as a caller may hand it over: a `Tool`, perhaps built by hand, perhaps without a dialect. */
export type ToolLike = Omit<AnyTool, 'dialect' | 'origin'> & {
  dialect?: JsonSchemaDialect;
  origin?: ToolOrigin;
};

function dialectOf(name: string, schema: JsonSchemaObject, given: unknown): JsonSchemaDialect {
  const dialect = schema.$schema === undefined && given !== undefined ? given : jsonSchemaDialect(schema);
  if (dialect !== 'draft-07' && dialect !== 'draft-2020-12') {
    const what =
      schema.$schema === undefined
        ? `dialect ${JSON.stringify(given)}`
        : `$schema ${JSON.stringify(schema.$schema)}`;
    throw new InvalidToolSchemaError(name, `unsupported ${what} (use draft-07 or 2020-12)`);
  }
  return dialect;
}

/** A JSON copy of a tool's schema field; throws `InvalidToolSchemaError` naming the field if it is not JSON. */
function jsonData(name: string, field: 'parameters' | 'outputSchema', value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value));
  } catch (error) {
    throw new InvalidToolSchemaError(name, `${field} is not JSON (${String(error)})`, { cause: error });
  }
}

function jsonCopy(name: string, parameters: unknown): JsonSchemaObject {
  const copy = jsonData(name, 'parameters', parameters);
  if (!isRecord(copy)) throw new InvalidToolSchemaError(name, 'parameters must be a JSON Schema object');
  if (copy.type !== 'object')
    throw new InvalidToolSchemaError(name, 'the input schema must describe an object (type: "object")');
  return copy;
}

/** A private, frozen copy of a hand-built tool's output schema (`deriveOutputSchema` checked `defineTool`'s). */
function outputCopy(name: string, schema: unknown): Readonly<JsonSchemaObject> {
  const copy = jsonData(name, 'outputSchema', schema);
  if (!isRecord(copy) || copy.type !== 'object')
    throw new InvalidToolSchemaError(name, 'the output schema must describe an object (type: "object")');
  return deepFreeze(copy);
}

function method<F>(owner: object, value: F): F {
  return typeof value === 'function' ? (value.bind(owner) as F) : value;
}

/**
 * The strict form of any tool, however it was made (`defineTool` or a hand-built object): its name
 * checked, its parameters copied, made strict (`strictJsonSchema`: unknown fields refused at every
 * depth) and frozen, its dialect settled, its hooks bound. Throws `InvalidToolNameError` or
 * `InvalidToolSchemaError` for what cannot be made strict, a `TypeError` for a tool without
 * `execute` or `description`, or whose `needsApproval` is neither a boolean nor a function.
 * @example registry.register(strictTool({ name: 'ping', description: 'Ping.', parameters, validator: undefined, execute }))
 */
export function strictTool(tool: ToolLike): AnyTool {
  if (strictTools.has(tool)) return tool as AnyTool;
  if (typeof tool !== 'object' || tool === null) throw new TypeError('A tool must be an object');
  const origin = tool.origin ?? 'local';
  assertToolName(tool.name, origin);
  if (typeof tool.execute !== 'function') throw new TypeError(`Tool ${tool.name} has no execute function`);
  if (typeof tool.description !== 'string')
    throw new TypeError(`Tool ${tool.name} has no description (a string)`);
  const approval: unknown = tool.needsApproval;
  if (approval !== undefined && typeof approval !== 'boolean' && typeof approval !== 'function')
    throw new TypeError(`Tool ${tool.name}: needsApproval must be a boolean or a function`);
  const schema = jsonCopy(tool.name, tool.parameters);
  const dialect = dialectOf(tool.name, schema, tool.dialect);
  const strict: AnyTool = Object.freeze({
    name: tool.name,
    description: tool.description,
    origin,
    parameters: deepFreeze(strictJsonSchema(schema)),
    dialect,
    validator: tool.validator,
    execute: method(tool, tool.execute),
    ...(tool.authorize ? { authorize: method(tool, tool.authorize) } : {}),
    ...(tool.needsApproval !== undefined ? { needsApproval: method(tool, tool.needsApproval) } : {}),
    ...(tool.persist ? { persist: method(tool, tool.persist) } : {}),
    ...(tool.toModelContent ? { toModelContent: method(tool, tool.toModelContent) } : {}),
    ...(tool.timeoutMs !== undefined ? { timeoutMs: tool.timeoutMs } : {}),
    ...(tool.maxArgBytes !== undefined ? { maxArgBytes: tool.maxArgBytes } : {}),
    ...(tool.idempotent === true ? { idempotent: true } : {}),
    ...(tool.annotations !== undefined ? { annotations: toolAnnotations(tool.name, tool.annotations) } : {}),
    ...(tool.outputSchema !== undefined ? { outputSchema: outputCopy(tool.name, tool.outputSchema) } : {}),
    ...(tool.outputValidator ? { outputValidator: tool.outputValidator } : {}),
  });
  strictTools.add(strict);
  return strict;
}
