import { type AGUIEvent, EventType, type Interrupt } from '@ag-ui/core';
import type { AgentEvent } from '../agent/agent-event.ts';
import type { ToolCall } from '../core/index.ts';
import { contentSummary } from '../tools/content-summary.ts';

/** What is open in the AG-UI stream while events are mapped: a step, a text or reasoning message. */
export interface AgUiMappingState {
  runId: string;
  step?: number;
  text?: string;
  reasoning?: string;
  /** Messages opened so far, for fresh ids. */
  messages: number;
}

/** Closes the open text or reasoning message (in that order), if any. */
export function closeMessages(state: AgUiMappingState): AGUIEvent[] {
  const events: AGUIEvent[] = [];
  if (state.reasoning !== undefined) {
    events.push(
      { type: EventType.REASONING_MESSAGE_END, messageId: state.reasoning },
      { type: EventType.REASONING_END, messageId: state.reasoning },
    );
    delete state.reasoning;
  }
  if (state.text !== undefined) {
    events.push({ type: EventType.TEXT_MESSAGE_END, messageId: state.text });
    delete state.text;
  }
  return events;
}

/** Closes the open messages and the open step. */
export function closeAll(state: AgUiMappingState): AGUIEvent[] {
  const events = closeMessages(state);
  if (state.step !== undefined) {
    events.push({ type: EventType.STEP_FINISHED, stepName: stepName(state.step) });
    delete state.step;
  }
  return events;
}

/** The AG-UI interrupt for a tool call waiting for approval. */
export function approvalInterrupt(toolCall: ToolCall, id: string): Interrupt {
  return {
    id,
    reason: 'tool_approval',
    toolCallId: toolCall.id,
    message: `Allow ${toolCall.name}(${JSON.stringify(toolCall.arguments)})?`,
    responseSchema: {
      type: 'object',
      properties: { approved: { type: 'boolean' } },
      required: ['approved'],
    },
  };
}

/**
 * The AG-UI events for one agent event (RUN_* aside, which the operator adds): steps, streamed
 * text and reasoning messages, tool calls when their arguments are complete, tool results.
 */
export function mapAgentEvent(state: AgUiMappingState, event: AgentEvent): AGUIEvent[] {
  switch (event.type) {
    case 'step-started':
      state.step = event.step;
      return [{ type: EventType.STEP_STARTED, stepName: stepName(event.step) }];
    case 'reasoning-delta': {
      if (event.text === '') return [];
      const events = state.text === undefined ? [] : closeMessages(state);
      if (state.reasoning === undefined) {
        state.reasoning = `${state.runId}-m${++state.messages}`;
        events.push(
          { type: EventType.REASONING_START, messageId: state.reasoning },
          { type: EventType.REASONING_MESSAGE_START, messageId: state.reasoning, role: 'reasoning' },
        );
      }
      events.push({
        type: EventType.REASONING_MESSAGE_CONTENT,
        messageId: state.reasoning,
        delta: event.text,
      });
      return events;
    }
    case 'text-delta': {
      if (event.text === '') return [];
      const events = state.reasoning === undefined ? [] : closeMessages(state);
      if (state.text === undefined) {
        state.text = `${state.runId}-m${++state.messages}`;
        events.push({ type: EventType.TEXT_MESSAGE_START, messageId: state.text, role: 'assistant' });
      }
      events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: state.text, delta: event.text });
      return events;
    }
    case 'tool-calls-ready': {
      const parentMessageId = state.text;
      const events = closeMessages(state);
      for (const call of event.toolCalls) {
        events.push(
          {
            type: EventType.TOOL_CALL_START,
            toolCallId: call.id,
            toolCallName: call.name,
            ...(parentMessageId === undefined ? {} : { parentMessageId }),
          },
          { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: JSON.stringify(call.arguments) },
          { type: EventType.TOOL_CALL_END, toolCallId: call.id },
        );
      }
      return events;
    }
    case 'tool-result':
      return [
        {
          type: EventType.TOOL_CALL_RESULT,
          messageId: `${event.toolCall.id}-result`,
          toolCallId: event.toolCall.id,
          content: contentSummary(event.outcome.content),
          role: 'tool',
        },
      ];
    case 'step-restarted':
      // AG-UI cannot take text back: the partial message is closed and the retry opens a new one.
      return closeMessages(state);
    case 'step-completed':
      return closeAll(state);
    case 'tool-call-delta':
    case 'stream-completed':
    case 'approval-requested':
    case 'agent-completed':
      return [];
    default: {
      const never: never = event;
      return never;
    }
  }
}

function stepName(step: number): string {
  return `step-${step}`;
}
