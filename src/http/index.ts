export { type FromSSEInit, fromSSE } from './from-sse.ts';
export { type MemoryRunEventStoreOptions, memoryRunEventStore } from './memory-run-event-store.ts';
export { type ApprovalQuestion, RunApprovals } from './run-approvals.ts';
export { type RunErrorAnswer, runErrorAnswer, runErrorResponse } from './run-error-response.ts';
export type { RunEnd, RunEventStore } from './run-event-store.ts';
export { type RunContext, RunRegistry, type RunRegistryOptions } from './run-registry.ts';
export { BodyPacer } from './body-pacer.ts';
export { isResumable, type ResumableEvents, resumableEvents } from './resumable-events.ts';
export type { RunDecision, Runs, RunStatus } from './runs.ts';
export { eventId, isSequencedEvent, parseEventId, type SequencedEvent } from './sequenced-event.ts';
export { type SSEFrameFields, sseFrame } from './sse-frame.ts';
export { SSE_HEADERS } from './sse-headers.ts';
export { type SSEStreamOptions, toSSEFrames } from './to-sse-frames.ts';
export { type SSEResponseInit, toSSEResponse } from './to-sse-response.ts';
export { type WriteSSEOptions, writeSSE } from './write-sse.ts';
export {
  type ToUIMessageStreamOptions,
  toUIMessageStream,
} from './ui-message-stream/to-ui-message-stream.ts';
export type { UIFinishReason, UIMessageChunk } from './ui-message-stream/ui-message-chunk.ts';
export {
  UI_MESSAGE_STREAM_HEADERS,
  type UIMessageStreamResponseInit,
  uiMessageStreamResponse,
} from './ui-message-stream/ui-message-stream-response.ts';
export {
  type ChatHandlerOptions,
  type ChatRunner,
  type ChatTurn,
  chatHandler,
} from './ui-message-stream/chat-handler.ts';
export type { ChatRequestBody, ChatUIMessage, ChatUIPart } from './ui-message-stream/chat-request-body.ts';
export { type ChatRun, type ChatRuns, memoryChatRuns } from './ui-message-stream/chat-runs.ts';
export {
  type ApprovalAnswer,
  approvalAnswers,
  fromUIMessages,
} from './ui-message-stream/from-ui-messages.ts';
export { untilApprovalsWait } from './ui-message-stream/until-approvals-wait.ts';
