import type { AgentEvent } from '../agent/index.ts';
import { contentSummary } from '../tools/index.ts';
import { terminalText } from './terminal-text.ts';

const MAX_RESULT_CHARS = 200;
const MAX_ARGUMENT_CHARS = 200;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Bidi controls and invisible characters: they can reorder or hide what a person approves. */
const HIDDEN = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** Arguments as JSON, with what would be hidden or reordered on screen written as `\u` escapes. */
const visibleJson = (value: unknown) =>
  JSON.stringify(value).replace(HIDDEN, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The terminal text for one agent event: reply text as it streams, a line per tool call and per
 * result; nothing for the bookkeeping events. What the model or a tool wrote holds no control
 * characters (see terminalText).
 */
export function renderEvent(event: AgentEvent): string {
  return terminalText(render(event));
}

function render(event: AgentEvent): string {
  switch (event.type) {
    case 'text-delta':
      return event.text;
    case 'step-restarted':
      return '\n[the reply broke off; trying again]\n';
    case 'tool-calls-ready':
      return (
        event.toolCalls
          .map((call) => `\n⚙ ${call.name}(${cut(visibleJson(call.arguments), MAX_ARGUMENT_CHARS)})`)
          .join('') + '\n'
      );
    case 'tool-result': {
      const { status } = event.outcome;
      return `  ↳ ${status}: ${cut(contentSummary(event.outcome.content), MAX_RESULT_CHARS).replace(/\s+/g, ' ')}\n`;
    }
    case 'approval-requested': {
      // What a person approves is shown whole, once: a model may put what matters past the tool
      // line's cut, so the question is preceded by the rest.
      const json = visibleJson(event.toolCall.arguments);
      return json.length > MAX_ARGUMENT_CHARS ? `  …${json.slice(MAX_ARGUMENT_CHARS)})\n` : '';
    }
    case 'reasoning-delta':
    case 'tool-call-delta':
    case 'stream-completed':
    case 'step-started':
    case 'step-completed':
    case 'agent-completed':
      return '';
    default: {
      const never: never = event;
      return never;
    }
  }
}
