import { RxAgentError } from './rx-agent-error.ts';

/** A tool call's arguments are not a JSON object; `raw` is the text the model sent. */
export class ToolCallParseError extends RxAgentError {
  static override readonly kind: string = 'ToolCallParseError';
  readonly raw: string;
  readonly toolName: string;
  readonly toolCallId: string;

  /** @param data.message what is wrong, when not the arguments (a call without a name). */
  constructor(data: {
    raw: string;
    toolName: string;
    toolCallId: string;
    cause?: unknown;
    message?: string;
  }) {
    super(
      data.message ?? `Arguments of tool call ${data.toolCallId} (${data.toolName}) are not a JSON object`,
      'tool_call_parse_error',
      {
        cause: data.cause,
      },
    );
    this.raw = data.raw;
    this.toolName = data.toolName;
    this.toolCallId = data.toolCallId;
  }
}
