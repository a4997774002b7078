/** A thinking block exactly as the API wants it back: text with its signature, or redacted data. */
export type AnthropicThinkingBlock =
  { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/**
 * What the provider keeps under `message.metadata.anthropic` of an assistant message: the turn's
 * thinking blocks in stream order, so the next request of a tool loop can send them back.
 */
export interface AnthropicMessageMetadata {
  thinking: AnthropicThinkingBlock[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The thinking blocks stored in a message's metadata; malformed entries are skipped (metadata may
 * come back from a session store or a user).
 */
export function thinkingBlocksOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
): AnthropicThinkingBlock[] {
  const own = metadata?.anthropic;
  if (!isRecord(own) || !Array.isArray(own.thinking)) return [];
  const blocks: AnthropicThinkingBlock[] = [];
  for (const entry of own.thinking as unknown[]) {
    if (!isRecord(entry)) continue;
    if (
      entry.type === 'thinking' &&
      typeof entry.thinking === 'string' &&
      typeof entry.signature === 'string'
    ) {
      blocks.push({ type: 'thinking', thinking: entry.thinking, signature: entry.signature });
    } else if (entry.type === 'redacted_thinking' && typeof entry.data === 'string') {
      blocks.push({ type: 'redacted_thinking', data: entry.data });
    }
  }
  return blocks;
}
