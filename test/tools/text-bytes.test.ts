import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capText } from '../../src/tools/cap-text.ts';
import { utf8Length } from '../../src/tools/utf8-length.ts';

describe('utf8Length', () => {
  it('equals the encoded length for any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
      { numRuns: 500 },
    );
    expect(utf8Length('\uD800')).toBe(3);
    expect(utf8Length('\uD800x')).toBe(4);
    expect(utf8Length('😀')).toBe(4);
  });
});

describe('capText', () => {
  it('never exceeds the cap (above the marker size) and never splits a character', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: 60, max: 400 }),
        (text, max) => {
          const { text: capped, truncated } = capText(text, max);
          expect(truncated).toBe(Buffer.byteLength(text) > max);
          if (!truncated) {
            expect(capped).toBe(text);
            return;
          }
          expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(max);
          const kept = capped.slice(0, capped.lastIndexOf('…[truncated'));
          expect(text.startsWith(kept)).toBe(true);
          expect(capped).toContain(`of ${Buffer.byteLength(text)} bytes shown]`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
