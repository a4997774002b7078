import { type ContentPart, InvalidRequestError, textOf } from '../../core/index.ts';

/**
 * The text of content that a provider's wire can only carry as text there (a system prompt, an
 * OpenAI assistant turn): its text parts, joined. A part of another type is an
 * `InvalidRequestError` before anything is sent, rather than left out unseen.
 * @param where the message, for the error: `'a system message'`
 * @example textOnly(message.content, 'openai', 'a system message')
 */
export function textOnly(content: string | readonly ContentPart[], provider: string, where: string): string {
  const other = typeof content === 'string' ? undefined : content.find((part) => part.type !== 'text');
  if (other !== undefined)
    throw new InvalidRequestError(`${provider}: ${where} can only carry text, not ${partType(other)} parts`, {
      option: 'messages',
    });
  return textOf(content);
}

/** A content part of a type no provider knows (from untyped code): an `InvalidRequestError`. */
export function unknownContentPart(part: unknown): InvalidRequestError {
  return new InvalidRequestError(`Unknown content part type ${partType(part)}`, { option: 'messages' });
}

function partType(part: unknown): string {
  const type = typeof part === 'object' && part !== null ? (part as { type?: unknown }).type : undefined;
  return JSON.stringify(type) ?? 'undefined';
}
