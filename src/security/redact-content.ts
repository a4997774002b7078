import type { ContentFilter } from './content-filter.ts';

/**
 * A content filter that replaces every match of the given patterns (global or not).
 * @param replacement the text put in place of each match
 * @default replacement '[REDACTED]'
 * @example new SecurityPolicy({ contentFilter: redactContent([/sk-[\w-]{20,}/, /AKIA[0-9A-Z]{16}/]) })
 */
export function redactContent(patterns: readonly RegExp[], replacement = '[REDACTED]'): ContentFilter {
  const global = patterns.map((p) => (p.global ? p : new RegExp(p.source, `${p.flags}g`)));
  return (content) => {
    let text = content;
    for (const pattern of global) text = text.replace(pattern, replacement);
    return text;
  };
}
