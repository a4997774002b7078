import { ToolError } from './tool-error.ts';

/**
 * A tool's input schema cannot be used: no JSON Schema can be derived from it, it does not describe an
 * object, its dialect is not supported, or ajv refuses to compile it in strict mode.
 */
export class InvalidToolSchemaError extends ToolError {
  static override readonly kind: string = 'InvalidToolSchemaError';

  constructor(toolName: string, reason: string, options: { cause?: unknown } = {}) {
    super(
      `Invalid input schema for tool ${JSON.stringify(toolName)}: ${reason}`,
      toolName,
      'invalid_tool_schema',
      options,
    );
  }
}
