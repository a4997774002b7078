import type { ChatModel, ChatRequest, Message } from '../core/index.ts';
import { textOf } from '../core/index.ts';
import { scriptedModel } from '../testing/index.ts';

const reply =
  'This is rxagent running offline: a scripted model streams this reply a few characters at a ' +
  'time, as a real model would. Set OPENAI_API_KEY (or another provider key) to talk to a real one.';

/** The offline model of `--demo`: it streams one fixed reply, whatever it is asked. */
export function demoModel(): ChatModel {
  const pieces = reply.match(/.{1,8}/gs) ?? [];
  const turn = (request: ChatRequest) => {
    const messages = typeof request.messages === 'string' ? [] : (request.messages as readonly Message[]);
    const asked = messages.filter((message) => message.role === 'user').length;
    const last = messages.at(-1);
    const echo = last && asked > 1 ? ` (You said: "${textOf(last.content)}".)` : '';
    return { text: [...pieces, echo] };
  };
  return scriptedModel([turn], { loop: true, delayMs: 25, provider: 'demo', modelId: 'rxagent-demo' });
}
