import { expect } from 'vitest';
import type { Message } from '../../src/index.ts';

/** Asserts that every tool call in `messages` is answered by exactly one tool message after it. */
export function expectNoOrphans(messages: readonly Message[]): void {
  messages.forEach((message, index) => {
    for (const call of message.toolCalls ?? []) {
      const answers = messages.slice(index + 1).filter((later) => later.toolCallId === call.id);
      expect(answers, `answers of ${call.id}`).toHaveLength(1);
    }
  });
}
