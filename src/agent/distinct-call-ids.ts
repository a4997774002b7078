import { type ChatResponse, generateToolCallId, message, type ToolCall } from '../core/index.ts';

/**
 * A turn whose tool calls each have their own id: a call that repeats an earlier call's id (a
 * hostile or broken server) gets a fresh one, in `toolCalls` and the assistant message alike. A
 * durable run keys its checkpoint (started markers, outcomes, decisions) by call id, so two calls
 * sharing one would share an outcome after a resume, and the one in doubt would never be reported
 * `interrupted`. The same turn when every id is distinct.
 */
export function distinctCallIds(response: ChatResponse): ChatResponse {
  const ids = response.toolCalls.map((call) => call.id);
  if (new Set(ids).size === ids.length) return response;
  const seen = new Set<string>();
  const renamed = ids.map((id) => {
    if (!seen.has(id)) {
      seen.add(id);
      return id;
    }
    let fresh = generateToolCallId();
    while (seen.has(fresh)) fresh = generateToolCallId();
    seen.add(fresh);
    return fresh;
  });
  // The message lists the same calls in the same order; each keeps its position's id.
  const rename = (call: ToolCall, index: number): ToolCall =>
    renamed[index] === call.id ? call : { ...call, id: renamed[index] ?? call.id };
  const calls = response.message.toolCalls?.map(rename);
  return {
    ...response,
    toolCalls: response.toolCalls.map(rename),
    message: message({ ...response.message, ...(calls ? { toolCalls: calls } : {}) }),
  };
}
