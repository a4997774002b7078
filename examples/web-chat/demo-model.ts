import type { ChatModel, ChatRequest, Message } from 'rxagent';
import { textOf } from 'rxagent';
import { scriptedModel } from 'rxagent/testing';
import { demoStory } from './demo-story.ts';

export { demoStory };

const pieces = (text: string, size = 6): string[] =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, i * size + size));

/**
 * An offline model for the web chat: asked to email someone it calls `send_email`, then reports the
 * result; anything else gets the story above, streamed slowly enough to watch (and to stop).
 */
export function demoModel(delayMs = 40): ChatModel {
  const turn = (request: ChatRequest) => {
    const messages = typeof request.messages === 'string' ? [] : (request.messages as readonly Message[]);
    const last = messages.at(-1);
    if (last?.role === 'tool') {
      const rejected = last.isError === true || /denied|reject|not approved/i.test(textOf(last.content));
      return {
        text: pieces(
          rejected ? 'The email was not sent: the call was rejected.' : 'Done: the email is on its way.',
        ),
      };
    }
    const asked = last ? textOf(last.content) : '';
    const to = /email\s+(\w+)/i.exec(asked)?.[1];
    if (to)
      return {
        text: ['Let me send that.'],
        toolCalls: [{ name: 'send_email', arguments: { to, subject: 'Hello' } }],
      };
    return { text: pieces(demoStory) };
  };
  return scriptedModel([turn], { loop: true, delayMs, provider: 'demo', modelId: 'demo-story' });
}
