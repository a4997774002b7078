import { InvalidToolSchemaError } from '../core/index.ts';
import { expandedSchemaSize } from '../tools/expanded-schema-size.ts';
import type { JsonSchemaObject } from '../tools/index.ts';
import { walkSchema } from '../tools/schema-walk.ts';

/**
 * The most JSON text the front end's tool schemas may hold together, by default: compiling a schema
 * costs about 5 µs per character of it (patterns with large repeats up to about 35 µs), on the event
 * loop, and every request carries its own. Front-end tool schemas are a few KB.
 */
export const DEFAULT_MAX_TOOL_SCHEMA_CHARS = 16 * 1024;

/** The most subschemas a front-end tool's schema may reach, its `$ref`s expanded. */
const MAX_EXPANDED_NODES = 4096;

/**
 * Refuses front-end tool schemas that would cost this server more than their size: the schemas of
 * an AG-UI input come from a client, and the model's arguments are checked against them here. At
 * most `maxChars` characters of JSON in all; no `$ref` that recurs, moves its base or expands a
 * schema past 4,096 subschemas (copies under `allOf`, nested through `$defs`, cost copies^depth);
 * no `uniqueItems` (every pair of items compared: 47 s for 700 copies over 2,000 numbers).
 * @throws InvalidToolSchemaError naming the first tool that crosses a limit
 */
export function checkFrontEndSchemas(
  tools: readonly { name: string; parameters?: unknown }[],
  maxChars: number,
): void {
  let chars = 0;
  for (const tool of tools) {
    chars += JSON.stringify(tool.parameters ?? null).length;
    if (chars > maxChars)
      throw new InvalidToolSchemaError(
        tool.name,
        `the front end's tool schemas hold more than the ${maxChars} characters of JSON allowed (maxToolSchemaChars)`,
      );
    const schema = toSchema(tool.parameters);
    if (expandedSchemaSize(schema, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES)
      throw new InvalidToolSchemaError(
        tool.name,
        `a front end's tool schema may not refer to itself or move the base of its $refs ($id, $anchor), and its $refs may expand it to at most ${MAX_EXPANDED_NODES} subschemas`,
      );
    let pairwise = false;
    walkSchema(schema, (node) => {
      if (node.uniqueItems === true) pairwise = true;
    });
    if (pairwise)
      throw new InvalidToolSchemaError(tool.name, "a front end's tool schema may not use uniqueItems");
  }
}

/** The parameters as a schema object (`defineTool` refuses anything else later, with its reason). */
const toSchema = (parameters: unknown): JsonSchemaObject =>
  typeof parameters === 'object' && parameters !== null ? (parameters as JsonSchemaObject) : {};
