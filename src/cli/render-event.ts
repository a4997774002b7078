import type { AgentEvent } from '../agent/index.ts';
import { contentSummary } from '../tools/index.ts';
import { terminalText } from './terminal-text.ts';

const MAX_RESULT_CHARS = 200;
const MAX_ARGUMENT_CHARS = 200;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

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
          .map((call) => `\n⚙ ${call.name}(${cut(JSON.stringify(call.arguments), MAX_ARGUMENT_CHARS)})`)
          .join('') + '\n'
      );
    case 'tool-result': {
      const { status } = event.outcome;
      return `  ↳ ${status}: ${cut(contentSummary(event.outcome.content), MAX_RESULT_CHARS).replace(/\s+/g, ' ')}\n`;
    }
    case 'reasoning-delta':
    case 'tool-call-delta':
    case 'stream-completed':
    case 'step-started':
    case 'step-completed':
    case 'approval-requested':
    case 'agent-completed':
      return '';
    default: {
      const never: never = event;
      return never;
    }
  }
}
