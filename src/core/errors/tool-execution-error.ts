import { ToolError } from './tool-error.ts';

/**
 * Thrown by a tool's `execute` to tell the model why it failed (e.g. "No city named Atlantis").
 * Its message reaches the model; any other error is reported to the model only as "Tool … failed".
 * @example throw new ToolExecutionError('No city named Atlantis')
 */
export class ToolExecutionError extends ToolError {
  static override readonly kind: string = 'ToolExecutionError';

  constructor(message: string, options: { toolName?: string; cause?: unknown; code?: string } = {}) {
    super(message, options.toolName ?? '', options.code ?? 'tool_execution_failed', { cause: options.cause });
  }
}
