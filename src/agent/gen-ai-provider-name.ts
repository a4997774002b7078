// rxagent's provider ids whose OpenTelemetry GenAI name differs (`gen_ai.provider.name` well-known
// values). Mapped here only: the `provider` id itself also keys `providerOptions`.
const WELL_KNOWN: Readonly<Record<string, string>> = {
  gemini: 'gcp.gemini',
  'vertex-ai': 'gcp.vertex_ai',
  bedrock: 'aws.bedrock',
  'azure-openai': 'azure.ai.openai',
  mistral: 'mistral_ai',
  xai: 'x_ai',
};

/**
 * The `gen_ai.provider.name` of a model's `provider` id: the conventions' well-known value where
 * there is one (`gcp.gemini`, `aws.bedrock`, `azure.ai.openai`, …), else the id as it is.
 * @example genAiProviderName('bedrock') // 'aws.bedrock'
 */
export function genAiProviderName(provider: string): string {
  return Object.hasOwn(WELL_KNOWN, provider) ? WELL_KNOWN[provider]! : provider;
}
