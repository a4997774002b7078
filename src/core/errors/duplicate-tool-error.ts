import { ToolError } from './tool-error.ts';

/** A tool with this name is already registered; pass `{ replace: true }` to replace it. */
export class DuplicateToolError extends ToolError {
  static override readonly kind: string = 'DuplicateToolError';

  constructor(toolName: string) {
    super(
      `A tool named ${JSON.stringify(toolName)} is already registered (pass { replace: true } to replace it)`,
      toolName,
      'duplicate_tool',
    );
  }
}
