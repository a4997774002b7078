import { InvalidToolSchemaError } from '../core/index.ts';
import { isRecord, type JsonSchemaObject } from './json-schema.ts';
import { linearRegExp } from './linear-regexp.ts';
import { walkSchema } from './schema-walk.ts';

/** Every regular expression of a schema, with where it is: `pattern`s and `patternProperties` keys. */
export function schemaPatterns(schema: JsonSchemaObject): { pattern: string; where: string }[] {
  const found: { pattern: string; where: string }[] = [];
  walkSchema(schema, (node, pointer) => {
    if (typeof node.pattern === 'string') found.push({ pattern: node.pattern, where: `${pointer}/pattern` });
    if (isRecord(node.patternProperties)) {
      for (const pattern of Object.keys(node.patternProperties)) {
        found.push({ pattern, where: `${pointer}/patternProperties` });
      }
    }
  });
  return found;
}

/**
 * Refuses a schema with a regular expression the linear-time engine cannot run: every `pattern`
 * and every `patternProperties` key, at any depth, is compiled with {@link linearRegExp}. Run when
 * a tool is defined, so a zod `.regex()`, a user's schema and an MCP server's `inputSchema` are
 * refused alike (an MCP tool is then left out with a warning, not its whole server). Throws
 * `InvalidToolSchemaError` naming the pattern and where it is.
 * @example assertLinearPatterns('lookup', { type: 'object', properties: { id: { type: 'string', pattern: '(?=a)' } } }) // throws
 */
export function assertLinearPatterns(toolName: string, schema: JsonSchemaObject): void {
  for (const { pattern, where } of schemaPatterns(schema)) {
    try {
      linearRegExp(pattern, 'u');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new InvalidToolSchemaError(toolName, `${reason} (at ${where || '/'})`, { cause: error });
    }
  }
}
