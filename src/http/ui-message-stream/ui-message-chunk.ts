/**
 * One chunk of the AI SDK's UI message stream protocol (`ai` 5 and later, the stream `useChat`
 * reads): the chunks rxagent emits, with the protocol's own names and fields. A value of this
 * type is a valid `UIMessageChunk` of the `ai` package (a test checks the two types and the
 * package's schema), so it can be handed to any AI SDK front end.
 */
export type UIMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  /** Removes every part of the current step: the step is streamed again. */
  | { type: 'reset-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; dynamic?: boolean }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown; dynamic?: boolean }
  | {
      type: 'tool-input-error';
      toolCallId: string;
      toolName: string;
      input: unknown;
      errorText: string;
      dynamic?: boolean;
    }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-approval-response'; approvalId: string; approved: boolean; reason?: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic?: boolean }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic?: boolean }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'error'; errorText: string }
  | { type: 'finish'; finishReason?: UIFinishReason; messageMetadata?: unknown }
  | { type: 'abort'; reason?: string }
  | { type: 'message-metadata'; messageMetadata: unknown };

/** The finish reasons of the UI message stream protocol. */
export type UIFinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'interrupted' | 'other';
