import type { ContentPart } from '../core/index.ts';
import { capText } from './cap-text.ts';
import { utf8Length } from './utf8-length.ts';

/** Content cut to a size, and whether it was cut. */
export interface CappedContent {
  content: string | readonly ContentPart[];
  truncated: boolean;
}

/**
 * Cuts the text of `content` to at most `maxBytes` UTF-8 bytes (`capText`): a string, or the text
 * parts of content with media, which share the budget in order (a part past it is cut to its
 * marker). Media parts are kept whole: the cap bounds text, which a model reads token by token.
 */
export function capContent(content: string | readonly ContentPart[], maxBytes: number): CappedContent {
  if (typeof content === 'string') {
    const capped = capText(content, maxBytes);
    return { content: capped.text, truncated: capped.truncated };
  }
  let left = maxBytes;
  let truncated = false;
  const parts = content.map((part): ContentPart => {
    if (part.type !== 'text') return part;
    const capped = capText(part.text, Math.max(0, left));
    left -= utf8Length(capped.text);
    truncated ||= capped.truncated;
    return capped.truncated ? { type: 'text', text: capped.text } : part;
  });
  return { content: truncated ? Object.freeze(parts) : content, truncated };
}
