import { type ChatModel, modelInfoOf, priceOf, RxAgentError } from '../../core/index.ts';
import { env, type ProviderOptions, trimSlash } from '../shared/index.ts';
import { createOpenAIModel } from './create-openai-model.ts';
import { type CapabilityOverrides, openAICapabilities } from './openai-capabilities.ts';
import type { OpenAIRequestOptions } from './to-openai-request.ts';

/** Options of {@link azureOpenAI}. */
export interface AzureOpenAIOptions extends ProviderOptions {
  /**
   * The Azure OpenAI resource name: the base URL becomes `https://{resource}.openai.azure.com/openai`.
   * @default process.env.AZURE_OPENAI_RESOURCE_NAME
   */
  resource?: string;
  /** Overrides `resource`, e.g. a proxy; the part before `/deployments/…`. */
  baseURL?: string;
  /** The `api-version` query parameter. @default process.env.OPENAI_API_VERSION, else '2024-10-21' */
  apiVersion?: string;
  /** Overrides the capabilities guessed from the deployment name. */
  capabilities?: CapabilityOverrides;
  /** Where `maxOutputTokens` goes. @default 'max_completion_tokens' */
  maxTokensField?: OpenAIRequestOptions['maxTokensField'];
}

/** The `api-version` used when none is given: the latest GA data-plane inference version. */
export const AZURE_OPENAI_API_VERSION = '2024-10-21';

/**
 * A model deployed on Azure OpenAI. The request goes to
 * `{baseURL}/deployments/{deployment}/chat/completions?api-version=…` with the key in the
 * `api-key` header. Base URL: `baseURL`, else from `resource` / `AZURE_OPENAI_RESOURCE_NAME`, else
 * `AZURE_OPENAI_ENDPOINT` + `/openai`; key: `apiKey`, else `AZURE_OPENAI_API_KEY` (without a key
 * no `api-key` header is sent, so a Microsoft Entra token can go in `headers.authorization`; with
 * neither, a subscription errors with `InvalidRequestError` before anything is sent).
 * Capabilities and price are guessed from the deployment name (deployments are usually named after
 * their model); set `capabilities` / `price` when they are not.
 * @param deployment the deployment name
 * @example
 * const model = azureOpenAI('gpt-4o', { resource: 'my-resource', apiKey: process.env.AZURE_KEY });
 */
export function azureOpenAI(deployment: string, options: AzureOpenAIOptions = {}): ChatModel {
  const resource = options.resource ?? env('AZURE_OPENAI_RESOURCE_NAME');
  const endpoint = env('AZURE_OPENAI_ENDPOINT');
  const baseURL =
    options.baseURL ??
    (resource
      ? `https://${resource}.openai.azure.com/openai`
      : endpoint
        ? `${trimSlash(endpoint)}/openai`
        : undefined);
  if (baseURL === undefined) {
    throw new RxAgentError(
      'azureOpenAI: set the resource or baseURL option, or AZURE_OPENAI_RESOURCE_NAME / AZURE_OPENAI_ENDPOINT',
      'invalid_options',
    );
  }
  const apiKey = options.apiKey ?? env('AZURE_OPENAI_API_KEY');
  const apiVersion = options.apiVersion ?? env('OPENAI_API_VERSION') ?? AZURE_OPENAI_API_VERSION;
  const capabilities = openAICapabilities(deployment, options.capabilities);
  return createOpenAIModel({
    provider: 'azure-openai',
    optionsKey: 'azure',
    modelId: deployment,
    url:
      `${trimSlash(baseURL)}/deployments/${encodeURIComponent(deployment)}/chat/completions` +
      `?api-version=${encodeURIComponent(apiVersion)}`,
    defaultHeaders: apiKey ? { 'api-key': apiKey } : {},
    credential: {
      headers: ['api-key', 'authorization'],
      option: 'apiKey',
      environmentVariables: ['AZURE_OPENAI_API_KEY'],
    },
    capabilities,
    reasoningModel: capabilities.reasoning,
    price: options.price ?? priceOf(deployment),
    contextWindow: options.contextWindow ?? modelInfoOf(deployment)?.contextWindow,
    maxTokensField: options.maxTokensField ?? 'max_completion_tokens',
    includeUsage: true,
    options,
  });
}
