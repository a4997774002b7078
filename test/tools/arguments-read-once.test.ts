import { describe, expect, it } from 'vitest';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';

describe('the arguments checked are the arguments executed', () => {
  it('a getter that answers an allowed value for its first n reads, then another: execute never gets the other', async () => {
    // On the unfixed code, n = 4 ran `rm -rf /`: the checks read the call's object, execute a copy.
    const ran: string[] = [];
    const shell = defineTool({
      name: 'shell',
      description: 'Runs an allowed command.',
      input: {
        type: 'object',
        properties: { cmd: { type: 'string', enum: ['ls', 'pwd'] } },
        required: ['cmd'],
      },
      execute: ({ cmd }) => {
        ran.push(String(cmd));
        return cmd;
      },
    });
    const registry = new ToolRegistry().register(shell);
    for (let allowedReads = 1; allowedReads <= 8; allowedReads += 1) {
      let reads = 0;
      const args = {};
      Object.defineProperty(args, 'cmd', {
        enumerable: true,
        get: () => (++reads <= allowedReads ? 'ls' : 'rm -rf /'),
      });
      const outcome = await registry.invoke({ id: `c${allowedReads}`, name: 'shell', arguments: args });
      expect(['ok', 'invalid_arguments']).toContain(outcome.status);
      if (outcome.status === 'ok') expect(outcome.result).toBe('ls');
    }
    expect(ran.every((cmd) => cmd === 'ls')).toBe(true);
    expect(ran.length).toBeGreaterThan(0);
  });
});
