import { ToolError } from './tool-error.ts';

/** A tool name breaks the naming rule (`^[a-z][a-z0-9_]*$` for local tools, at most 64 characters). */
export class InvalidToolNameError extends ToolError {
  static override readonly kind: string = 'InvalidToolNameError';
  /** The rule the name had to follow, for the message and for callers. */
  readonly rule: string;

  constructor(toolName: string, rule: string) {
    super(`Invalid tool name ${JSON.stringify(toolName)}: ${rule}`, toolName, 'invalid_tool_name');
    this.rule = rule;
  }
}
