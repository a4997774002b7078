import { ToolExecutionError } from './tool-execution-error.ts';

/**
 * Thrown by a tool's `execute` when the process running the call stopped before it answered (an MCP
 * server that crashed mid-call, a lost worker): the call may or may not have taken effect. A
 * registry settles it as status `interrupted`, its message reaching the model, so the model checks
 * before repeating a side effect instead of retrying blindly.
 * @example throw new ToolInterruptedError('The bank server stopped while running this call', { toolName: 'pay' })
 */
export class ToolInterruptedError extends ToolExecutionError {
  static override readonly kind: string = 'ToolInterruptedError';

  constructor(message: string, options: { toolName?: string; cause?: unknown } = {}) {
    super(message, { ...options, code: 'tool_interrupted' });
  }
}
