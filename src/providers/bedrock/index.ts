export { type AwsCredentials, type AwsCredentialsInput } from './aws-credentials.ts';
export { bedrock, type BedrockOptions } from './bedrock.ts';
export type { BedrockProviderOptions } from './bedrock-provider-options.ts';
