import {
  type ChatResponse,
  generateToolCallId,
  message,
  type StreamEvent,
  type ToolCall,
} from '../core/index.ts';

/** Whether a finished turn may be kept in the response cache: only a whole answer or whole calls. */
export function isCacheableTurn(events: readonly StreamEvent[]): boolean {
  const last = events.at(-1);
  if (last?.type !== 'stream-completed') return false;
  const reason = last.response.finishReason;
  return reason === 'stop' || reason === 'tool-calls';
}

/**
 * A cached turn's events as a new turn: each tool call gets a fresh id (the same one in the
 * deltas, `tool-calls-ready` and `stream-completed`), so a replay never shares an idempotency key
 * or an audit id with the run that was cached, and the response reports no usage or cost, since
 * none was spent.
 */
export function replayedTurn(events: readonly StreamEvent[]): StreamEvent[] {
  const ids = new Map<string, string>();
  const fresh = (id: string): string => {
    let next = ids.get(id);
    if (next === undefined) ids.set(id, (next = generateToolCallId()));
    return next;
  };
  const call = (toolCall: ToolCall): ToolCall => ({ ...toolCall, id: fresh(toolCall.id) });
  const response = (cached: ChatResponse): ChatResponse => {
    const { usage: _usage, cost: _cost, ...rest } = cached;
    const toolCalls = cached.toolCalls.map(call);
    const calls = cached.message.toolCalls?.map(call);
    return {
      ...rest,
      toolCalls,
      message: message({ ...cached.message, ...(calls ? { toolCalls: calls } : {}) }),
    };
  };
  return events.map((event): StreamEvent => {
    switch (event.type) {
      case 'tool-call-delta':
        return event.id === undefined ? event : { ...event, id: fresh(event.id) };
      case 'tool-calls-ready':
        return { ...event, toolCalls: event.toolCalls.map(call) };
      case 'stream-completed':
        return { ...event, response: response(event.response) };
      case 'text-delta':
      case 'reasoning-delta':
        return event;
      default: {
        const never: never = event;
        return never;
      }
    }
  });
}
