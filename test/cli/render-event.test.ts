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
