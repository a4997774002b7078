export {
  type AwsCredentials,
  type AwsCredentialsInput,
  resolveAwsCredentials,
  resolveAwsRegion,
} from './aws-credentials.ts';
export { type BedrockOptions, bedrock } from './bedrock.ts';
export { bedrockCapabilities } from './bedrock-capabilities.ts';
export { createBedrockMapper } from './bedrock-chunk-mapper.ts';
export { parseBedrockErrorBody } from './bedrock-error-body.ts';
export { bedrockException } from './bedrock-exception.ts';
export {
  type BedrockContentBlock,
  type BedrockMessage,
  type BedrockReasoningBlock,
  toBedrockMessages,
} from './bedrock-messages.ts';
export { bedrockModelName, bedrockPriceOf, bedrockPrices } from './bedrock-prices.ts';
export { buildConverseRequest, type ConverseBody } from './bedrock-request.ts';
export { decodeEventStream, type EventStreamEvent } from './decode-event-stream.ts';
export { type SigV4SignerConfig, sigV4Signer } from './sign-request.ts';
