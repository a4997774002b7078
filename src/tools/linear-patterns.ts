import { InvalidToolSchemaError } from '../core/index.ts';
import { isRecord, type JsonSchemaObject } from './json-schema.ts';
import { linearRegExp } from './linear-regexp.ts';
import { walkSchema } from './schema-walk.ts';

/**
 * Refuses a schema with a regular expression the linear-time engine cannot run: every `pattern`
 * and every `patternProperties` key, at any depth, is compiled with {@link linearRegExp}. Run when
 * a tool is defined, so a zod `.regex()`, a user's schema and an MCP server's `inputSchema` are
 * refused alike (an MCP tool is then left out with a warning, not its whole server). Throws
 * `InvalidToolSchemaError` naming the pattern and where it is.
 * @example assertLinearPatterns('lookup', { type: 'object', properties: { id: { type: 'string', pattern: '(?=a)' } } }) // throws
 */
export function assertLinearPatterns(toolName: string, schema: JsonSchemaObject): void {
  walkSchema(schema, (node, pointer) => {
    const patterns = [
      ...(typeof node.pattern === 'string' ? [[node.pattern, `${pointer}/pattern`]] : []),
      ...(isRecord(node.patternProperties)
        ? Object.keys(node.patternProperties).map((key) => [key, `${pointer}/patternProperties`])
        : []),
    ];
    for (const [pattern = '', where] of patterns) {
      try {
        linearRegExp(pattern, 'u');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new InvalidToolSchemaError(toolName, `${reason} (at ${where || '/'})`, { cause: error });
      }
    }
  });
}
