import { RxAgentError } from './rx-agent-error.ts';

/** The base of errors about tools: bad definitions and registrations. */
export class ToolError extends RxAgentError {
  static override readonly kind: string = 'ToolError';
  readonly toolName: string;

  constructor(message: string, toolName: string, code = 'tool_error', options: { cause?: unknown } = {}) {
    super(message, code, options);
    this.toolName = toolName;
  }
}
