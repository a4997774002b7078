import { describe, expect, it } from 'vitest';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';
import { linearRegExp } from '../../src/tools/linear-regexp.ts';

const call = (args: Record<string, unknown>) => ({ id: 'call_1', name: 'put', arguments: args });

/** Patterns whose meaning RE2 and JavaScript differ on: \s, \S and the dot. */
const cases: readonly [pattern: string, value: string][] = [
  ['^\\S+$', 'a\u00a0b'],
  ['^\\S+$', 'a\ufeffb'],
  ['^[^\\s]+$', 'a\u2028b'],
  ['^.+$', 'a\rb'],
  ['^.+$', 'a\u2028b'],
  ['^.+$', 'a\u{1F600}b'],
  ['^\\s$', '\u00a0'],
  ['^\\s$', '\u000b'],
  ['^[\\s\\S]{3}$', 'a\nb'],
  ['^[a\\S]$', '\u3000'],
  ['^[a\\S]$', '\u{10ffff}'],
  ['^[\\S]$', '\u2029'],
  ['^\\.\\\\s$', '.\\s'],
  ['^[.]$', '\r'],
  ['^[\\].]+$', '].'],
];

describe('tool argument patterns mean what they mean in JavaScript', () => {
  it.each(cases)('%j on %j: as RegExp with the u flag', (pattern, value) => {
    expect(linearRegExp(pattern, 'u').test(value)).toBe(new RegExp(pattern, 'u').test(value));
  });

  it('a single-line name field refuses a carriage return and a no-break space', async () => {
    const put = defineTool({
      name: 'put',
      description: 'Writes a header.',
      origin: 'mcp',
      input: {
        type: 'object',
        properties: {
          name: { type: 'string', pattern: '^\\S+$' },
          value: { type: 'string', pattern: '^.*$' },
        },
        required: ['name', 'value'],
      },
      execute: () => 'ok',
    });
    const registry = new ToolRegistry().register(put);
    expect(await registry.invoke(call({ name: 'x-a', value: 'b' }))).toMatchObject({ status: 'ok' });
    expect(await registry.invoke(call({ name: 'x-a', value: 'b\r\nSet-Cookie: s=1' }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(await registry.invoke(call({ name: 'x\u00a0a', value: 'b' }))).toMatchObject({
      status: 'invalid_arguments',
    });
  });
});
