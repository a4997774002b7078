/** What the provider keeps of one function call, keyed by rxagent's tool-call id. */
export interface GeminiFunctionCallMetadata {
  /** The id Gemini sent with the call (absent when rxagent generated the tool-call id). */
  id?: string;
  /** The thought signature of the call's part, which Gemini wants back with it. */
  thoughtSignature?: string;
}

/**
 * What the provider keeps under `message.metadata.gemini` of an assistant message, so the next
 * request sends Gemini its own ids and thought signatures back.
 */
export interface GeminiMessageMetadata {
  /** The signature of the reply's text part(s). */
  thoughtSignature?: string;
  functionCalls?: Record<string, GeminiFunctionCallMetadata>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The Gemini metadata of a message, validated field by field (it may come from a store or a user). */
export function geminiMetadataOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
): GeminiMessageMetadata {
  const own = metadata?.gemini;
  if (!isRecord(own)) return {};
  const result: GeminiMessageMetadata = {};
  if (typeof own.thoughtSignature === 'string') result.thoughtSignature = own.thoughtSignature;
  if (isRecord(own.functionCalls)) {
    const calls: Record<string, GeminiFunctionCallMetadata> = {};
    for (const [key, value] of Object.entries(own.functionCalls)) {
      if (!isRecord(value)) continue;
      calls[key] = {
        ...(typeof value.id === 'string' ? { id: value.id } : {}),
        ...(typeof value.thoughtSignature === 'string' ? { thoughtSignature: value.thoughtSignature } : {}),
      };
    }
    result.functionCalls = calls;
  }
  return result;
}
