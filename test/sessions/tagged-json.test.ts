import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTagged, stringifyTagged } from '../../src/sessions/tagged-json.ts';

const leaf = fc.oneof(
  fc.string(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.uint8Array(),
  fc.webUrl().map((href) => new URL(href)),
  fc.date({ noInvalidDate: true }),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node')),
    fc.dictionary(fc.oneof(fc.string(), fc.constant('$rxagent')), tie('node')),
  ),
})).node;

describe('tagged JSON', () => {
  it('round-trips any JSON value with bytes, URLs, dates, non-finite numbers and tag-like keys', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(parseTagged(stringifyTagged(input))).toEqual(input);
      }),
    );
  });

  it('keeps text on one line, so session files split exactly', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(stringifyTagged(input)).not.toContain('\n');
      }),
    );
  });

  it('keeps -0, NaN and the infinities (found by the property above: JSON turns -0 into 0)', () => {
    expect(parseTagged(stringifyTagged([-0, NaN, Infinity, -Infinity, 0]))).toEqual([
      -0,
      NaN,
      Infinity,
      -Infinity,
      0,
    ]);
    expect(Object.is((parseTagged(stringifyTagged({ z: -0 })) as { z: number }).z, -0)).toBe(true);
  });

  it('keeps a __proto__ key as data (found by the property above: it was dropped)', () => {
    const input = JSON.parse('{"__proto__":{"polluted":true},"b":2}') as Record<string, unknown>;
    const output = parseTagged(stringifyTagged(input)) as Record<string, unknown>;
    expect(Object.keys(output)).toEqual(['__proto__', 'b']);
    expect(output).toEqual(input);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves out undefined object members and stores undefined array items as null, as JSON does', () => {
    expect(parseTagged(stringifyTagged({ a: undefined, b: [undefined, 1] }))).toEqual({ b: [null, 1] });
  });

  it('rejects values no store can keep with TypeError', () => {
    expect(() => stringifyTagged({ f: () => 1 })).toThrow(TypeError);
    expect(() => stringifyTagged(10n)).toThrow(TypeError);
    expect(() => stringifyTagged(Symbol('s'))).toThrow(TypeError);
  });
});
