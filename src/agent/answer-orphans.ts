import { type Message, message } from '../core/index.ts';

/** One stored message with its index in the session (as `Indexed`). */
interface Indexed {
  readonly index: number;
  readonly message: Message;
}

/** What the model is told for a stored call that has no result. */
const NO_RESULT = JSON.stringify({ error: 'interrupted: no result of this call was recorded' });

/**
 * A stored history as every provider accepts it: a tool call with no result after it (a session
 * written by an older version, or by hand) gets an error result right after its turn, and a result
 * whose call is not there is left out. Only what is sent changes: the session keeps what it has.
 */
export function answerOrphans<T extends Indexed>(history: readonly T[]): Indexed[] {
  const answered = new Set<string>();
  const called = new Set<string>();
  for (const { message: m } of history) {
    if (m.role === 'tool' && m.toolCallId !== undefined) answered.add(m.toolCallId);
    for (const call of m.toolCalls ?? []) called.add(call.id);
  }
  const out: Indexed[] = [];
  let pending: { index: number; ids: string[] } | undefined;
  const flush = () => {
    if (!pending) return;
    for (const id of pending.ids) out.push({ index: pending.index, message: noResult(id) });
    pending = undefined;
  };
  for (const item of history) {
    const m = item.message;
    if (m.role === 'tool') {
      if (m.toolCallId === undefined || !called.has(m.toolCallId)) continue;
      out.push(item);
      continue;
    }
    flush();
    out.push(item);
    const missing = (m.toolCalls ?? []).map((call) => call.id).filter((id) => !answered.has(id));
    if (missing.length > 0) pending = { index: item.index, ids: missing };
  }
  flush();
  return out;
}

function noResult(toolCallId: string): Message {
  return message({ role: 'tool', toolCallId, content: NO_RESULT, isError: true });
}
