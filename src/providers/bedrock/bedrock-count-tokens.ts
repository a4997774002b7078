/**
 * The body of Bedrock's `CountTokens` (`POST /model/{modelId}/count-tokens`) for a Converse body:
 * `{ input: { converse: { messages, system, toolConfig, additionalModelRequestFields } } }`
 * (generation settings left out). The answer's `inputTokens` is the request's input tokens.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html
 */
export function bedrockCountTokensBody(converse: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of ['messages', 'system', 'toolConfig', 'additionalModelRequestFields'])
    if (converse[key] !== undefined) input[key] = converse[key];
  return { input: { converse: input } };
}

/**
 * The model-info id of a Bedrock model id: without the inference-profile region (`us.`, `eu.` …),
 * the vendor (`anthropic.`) and the version suffix (`-v1:0`), so
 * `us.anthropic.claude-sonnet-4-20250514-v1:0` finds `claude-sonnet-4`'s window.
 */
export function bedrockInfoId(modelId: string): string {
  const parts = modelId.toLowerCase().split('.');
  return (parts.at(-1) ?? modelId).replace(/-v\d+(?::\d+)?$/, '');
}
