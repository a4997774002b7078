export { AZURE_OPENAI_API_VERSION, azureOpenAI, type AzureOpenAIOptions } from './azure-openai.ts';
export { type CapabilityOverrides } from './openai-capabilities.ts';
export { openaiCompatible, type OpenAICompatibleOptions } from './openai-compatible.ts';
export { openai, OPENAI_DEFAULT_BASE_URL, type OpenAIOptions } from './openai.ts';
export type { OpenAIProviderOptions } from './openai-provider-options.ts';
