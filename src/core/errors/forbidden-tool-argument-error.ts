import { ToolError } from './tool-error.ts';

/**
 * A tool's input schema declares an identity-shaped property (`user_id`, `tenantId`, `on_behalf_of`, …).
 * Who acts comes from the caller's `actor`, never from the model's arguments.
 */
export class ForbiddenToolArgumentError extends ToolError {
  static override readonly kind: string = 'ForbiddenToolArgumentError';
  /** The property name as written in the schema. */
  readonly argumentName: string;
  /** JSON pointer to the place in the input schema that declares it. */
  readonly schemaPath: string;

  constructor(toolName: string, argumentName: string, schemaPath: string) {
    super(
      `Tool ${JSON.stringify(toolName)} declares the identity-shaped argument ${JSON.stringify(argumentName)} ` +
        `at ${schemaPath || '/'}; identity comes from the caller's actor, never from the model`,
      toolName,
      'forbidden_tool_argument',
    );
    this.argumentName = argumentName;
    this.schemaPath = schemaPath;
  }
}
