/**
 * `providerOptions.bedrock`: the top-level Converse fields (`guardrailConfig`,
 * `performanceConfig`, `requestMetadata`, `additionalModelResponseFieldPaths`, `promptVariables`,
 * `serviceTier`, and `inferenceConfig`, merged into rxagent's) pass as they are; every other key
 * goes into `additionalModelRequestFields`, the model family's own parameters.
 * @example { bedrock: { thinking: { type: 'enabled', budget_tokens: 2048 }, top_k: 40 } }
 */
export interface BedrockProviderOptions extends Record<string, unknown> {
  /** A guardrail to apply. */
  guardrailConfig?: { guardrailIdentifier: string; guardrailVersion: string; trace?: 'enabled' | 'disabled' };
  /** `{ latency: 'optimized' }` on models that offer it. */
  performanceConfig?: { latency: 'standard' | 'optimized' };
  /** Tags for invocation logs. */
  requestMetadata?: Record<string, string>;
  /** Extra `inferenceConfig` fields, merged over rxagent's. */
  inferenceConfig?: Record<string, unknown>;
  /** Model-specific fields, merged over the model option of the same name. */
  additionalModelRequestFields?: Record<string, unknown>;
  /** JSON pointers of extra response fields to return. */
  additionalModelResponseFieldPaths?: readonly string[];
}
