import { describe, expect, it } from 'vitest';
import { renderEvent } from '../../src/cli/render-event.ts';

describe('renderEvent', () => {
  it('shows the arguments to approve as they are: bidi controls and invisible characters escaped', () => {
    const shown = renderEvent({
      type: 'tool-calls-ready',
      toolCalls: [{ id: 'c1', name: 'run', arguments: { command: 'ls \u202e; rm -rf ~ #\u2066x\u200b' } }],
    });
    expect(shown).toContain(String.raw`"ls \u202e; rm -rf ~ #\u2066x\u200b"`);
    expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
  });

  it('drops control characters from what a model or a tool wrote', () => {
    expect(renderEvent({ type: 'text-delta', text: '\u001b]52;c;aGk=\u0007ok\r\n' })).toBe(']52;c;aGk=ok\n');
  });
});

describe('renderEvent for an approval', () => {
  it('shows the rest of the arguments a person approves, when the tool line cut them', () => {
    // A hostile model puts a harmless start first and what matters past the cut.
    const args = { subject: `Lunch ${'on Friday, '.repeat(30)}`, to: 'attacker@evil.example', bcc: 'x@y' };
    const call = { id: 'c1', name: 'send_email', arguments: args };
    const line = renderEvent({ type: 'tool-calls-ready', toolCalls: [call] });
    expect(line).not.toContain('attacker');
    const asked = renderEvent({ type: 'approval-requested', step: 1, toolCall: call });
    expect(asked).toContain('attacker@evil.example');
    // The tool line and the rest shown with the question are the arguments, each part once.
    const head = /\(([^]*)…\)\n$/.exec(line)![1]!;
    const rest = /^ {2}…([^]*)\)\n$/.exec(asked)![1]!;
    expect(head + rest).toBe(JSON.stringify(args));
  });

  it('does not repeat short arguments, already shown whole on the tool line', () => {
    const call = { id: 'c1', name: 'send_email', arguments: { to: 'Bob' } };
    expect(renderEvent({ type: 'approval-requested', step: 1, toolCall: call })).toBe('');
  });
});
