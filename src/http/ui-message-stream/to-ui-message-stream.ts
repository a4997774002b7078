import { Observable, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../../agent/agent-event.ts';
import { RxAgentError, type ToolCall } from '../../core/index.ts';
import { publicError } from '../public-error.ts';
import { closeStep, initialUIChunkState } from './ui-chunk-state.ts';
import { uiChunksOfEvent } from './ui-chunks-of-event.ts';
import type { UIMessageChunk } from './ui-message-chunk.ts';

/** Options of {@link toUIMessageStream}. */
export interface ToUIMessageStreamOptions {
  /** The id of the assistant message the chunks build (sent in `start`); the page makes one without it. */
  messageId?: string;
  /** Mark tool parts `dynamic` (`dynamic-tool` parts on the page instead of `tool-<name>`). @default false */
  dynamicTools?: boolean;
  /** The approval id the page answers for a tool call. @default the tool call's id */
  approvalId?: (toolCall: ToolCall) => string;
  /**
   * The text of the `error` chunk for a failed run.
   * @default what `publicError` lets a browser see: an rxagent error's message, but a generic one
   * for a provider's, network, tool, store, audit or MCP failure and for anything else
   */
  errorText?: (error: unknown) => string;
}

const defaultErrorText = (error: unknown): string => publicError(error).message;

/**
 * Turns an agent run's events into the AI SDK's UI message stream (the chunks `useChat` reads):
 * `start`, then per step `start-step`, its reasoning and text parts, its tool calls (input, an
 * approval request, the output, an error or a denial), `finish-step`, and `finish` with the run's
 * finish reason. A restarted step is withdrawn with `reset-step`. A failed run ends with one
 * `error` chunk (the Observable completes: the page shows the error). A run that ends while
 * approvals are pending (the run waits for them) ends with `finish` (`tool-calls`); one that ends
 * without completing (a cancel) ends with `abort`.
 * @param options the message id, tool part shape, approval ids, error text
 * @example
 * const response = uiMessageStreamResponse(agent.run('Hi').pipe(toUIMessageStream()));
 */
export function toUIMessageStream(
  options: ToUIMessageStreamOptions = {},
): OperatorFunction<AgentEvent, UIMessageChunk> {
  const settings = {
    dynamic: options.dynamicTools ?? false,
    approvalId: options.approvalId ?? ((call: ToolCall) => call.id),
  };
  const errorText = options.errorText ?? defaultErrorText;
  return (source) =>
    new Observable<UIMessageChunk>((subscriber) => {
      const state = initialUIChunkState();
      const emit = (chunks: readonly UIMessageChunk[]) => {
        for (const chunk of chunks) subscriber.next(chunk);
      };
      subscriber.next(
        options.messageId === undefined ? { type: 'start' } : { type: 'start', messageId: options.messageId },
      );
      return source.subscribe({
        next: (event) => emit(uiChunksOfEvent(state, event, settings)),
        error: (error: unknown) => {
          // A run stopped on purpose is not a failure (a registry that tells stops apart errs so).
          const stopped = RxAgentError.is(error) && error.code === 'run_cancelled';
          if (stopped) emit([...closeStep(state), { type: 'abort', reason: error.message }]);
          else emit([{ type: 'error', errorText: errorText(error) }]);
          subscriber.complete();
        },
        complete: () => {
          if (!state.completed) {
            const waiting = state.pending.size > 0;
            emit(closeStep(state));
            emit([
              waiting
                ? { type: 'finish', finishReason: 'tool-calls' }
                : { type: 'abort', reason: 'The run was stopped' },
            ]);
          }
          subscriber.complete();
        },
      });
    });
}
