export * from './errors/index.ts';
export type {
  FinishPart,
  ProviderEvent,
  ReasoningDelta,
  StreamCompleted,
  StreamEvent,
  TextDelta,
  ToolCallDelta,
  ToolCallsReady,
} from './events.ts';
export {
  assistant,
  type ContentPart,
  type Message,
  message,
  type Role,
  system,
  type ToolCall,
  textOf,
  toolMessage,
  user,
} from './messages.ts';
export type { CallOptions, ChatModel, ModelCapabilities, RetryOptions } from './model.ts';
export { estimateTokens, messageTokens, textTokens, tokenBound } from './estimate-tokens.ts';
export { type ModelInfo, modelInfo, modelInfoOf } from './model-info.ts';
export { modelPrices } from './model-prices.ts';
export type { ModelPrice } from './model-price.ts';
export { computeCost, priceOf } from './pricing.ts';
export type {
  ChatRequest,
  JsonSchema,
  ProviderOptionsMap,
  ResponseFormat,
  ToolChoice,
  ToolSpec,
} from './request.ts';
export type { ChatResponse, FinishReason } from './response.ts';
export {
  type InferSchemaOutput,
  isStandardSchema,
  type StandardJSONSchemaV1Converter,
  type StandardSchemaV1,
  type StandardSchemaV1Issue,
  type StandardSchemaV1Options,
  type StandardSchemaV1PathSegment,
  type StandardSchemaV1Props,
  type StandardSchemaV1Result,
} from './standard-schema.ts';
export { generateToolCallId } from './tool-call-id.ts';
export { type Cost, emptyUsage, type Usage } from './usage.ts';
