import { type Message, message } from '../core/index.ts';
import type { ToolOutcome } from '../tools/index.ts';

/** The tool message that answers a call with its outcome (`isError` unless it succeeded). */
export function toolMessageOf(outcome: ToolOutcome): Message {
  return message({
    role: 'tool',
    toolCallId: outcome.toolCallId,
    content: outcome.content,
    ...(outcome.status === 'ok' ? {} : { isError: true }),
  });
}
