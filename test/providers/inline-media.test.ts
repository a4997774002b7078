import { describe, expect, it } from 'vitest';
import { inlineMedia, sniffImageType } from '../../src/providers/shared/index.ts';

describe('inlineMedia', () => {
  it('reads data: URLs in data or url, keeping an explicit media type first', () => {
    expect(inlineMedia({ url: 'data:image/gif;base64,R0lGODdh' })).toEqual({
      data: 'R0lGODdh',
      mediaType: 'image/gif',
    });
    expect(inlineMedia({ data: 'data:image/png;base64,iVBOR' })).toEqual({
      data: 'iVBOR',
      mediaType: 'image/png',
    });
    expect(inlineMedia({ data: 'data:;base64,/9j/4AAQ', mediaType: 'image/jpeg' })).toEqual({
      data: '/9j/4AAQ',
      mediaType: 'image/jpeg',
    });
  });
  it('sniffs the type of bare base64 and leaves remote URLs alone', () => {
    expect(inlineMedia({ data: '/9j/4AAQ' })).toEqual({ data: '/9j/4AAQ', mediaType: 'image/jpeg' });
    expect(inlineMedia({ url: 'https://example.com/cat.png' })).toBeUndefined();
    expect(inlineMedia({})).toBeUndefined();
    expect(['R0lGOD', 'UklGRx', 'iVBOR'].map(sniffImageType)).toEqual([
      'image/gif',
      'image/webp',
      'image/png',
    ]);
  });
});
