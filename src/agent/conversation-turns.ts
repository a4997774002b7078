import type { IndexedMessage } from './context-summary.ts';

/**
 * Messages grouped in whole turns: a turn starts at each user message and holds everything up to
 * the next (assistant replies, tool calls and their results, system messages), so dropping whole
 * turns never parts a tool call from its result. Messages before the first user message are a turn.
 */
export function conversationTurns(messages: readonly IndexedMessage[]): IndexedMessage[][] {
  const turns: IndexedMessage[][] = [];
  let turn: IndexedMessage[] = [];
  for (const item of messages) {
    if (item.message.role === 'user' && turn.length > 0) {
      turns.push(turn);
      turn = [];
    }
    turn.push(item);
  }
  if (turn.length > 0) turns.push(turn);
  return turns;
}
