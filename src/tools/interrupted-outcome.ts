import type { ToolCall } from '../core/index.ts';
import { failureContent } from './invoke/model-content.ts';
import type { ToolOutcome } from './tool-outcome.ts';

/** What the model is told of a call whose process stopped before it answered. */
export const INTERRUPTED_MESSAGE =
  'The process running this call stopped before it finished; it may or may not have taken effect. ' +
  'Check its effect before calling it again.';

/**
 * The outcome of a call whose process stopped before it settled (a crash, a restart, a lost
 * worker): status `interrupted`, and a short JSON text telling the model the call may or may not
 * have taken effect, so it checks before repeating a side effect.
 * @param message What the application knows of the interruption. @default a generic explanation
 * @example interruptedOutcome(call) // { status: 'interrupted', content: '{"error":"interrupted",…}', … }
 */
export function interruptedOutcome(
  call: Pick<ToolCall, 'id' | 'name'>,
  message = INTERRUPTED_MESSAGE,
): ToolOutcome {
  const error = { message };
  return {
    status: 'interrupted',
    toolCallId: call.id,
    name: call.name,
    error,
    content: failureContent('interrupted', error),
    durationMs: 0,
  };
}
