import type { AgentEvent } from '../agent/index.ts';
import { contentSummary } from '../tools/index.ts';

const MAX_RESULT_CHARS = 200;

/**
 * The terminal text for one agent event: reply text as it streams, a line per tool call and per
 * result; nothing for the bookkeeping events.
 */
export function renderEvent(event: AgentEvent): string {
  switch (event.type) {
    case 'text-delta':
      return event.text;
    case 'step-restarted':
      return '\n[the reply broke off; trying again]\n';
    case 'tool-calls-ready':
      return (
        event.toolCalls.map((call) => `\n⚙ ${call.name}(${JSON.stringify(call.arguments)})`).join('') + '\n'
      );
    case 'tool-result': {
      const { status } = event.outcome;
      const content = contentSummary(event.outcome.content);
      const shown = content.length > MAX_RESULT_CHARS ? `${content.slice(0, MAX_RESULT_CHARS)}…` : content;
      return `  ↳ ${status}: ${shown.replace(/\s+/g, ' ')}\n`;
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
