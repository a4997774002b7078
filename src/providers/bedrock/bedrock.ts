import { defer, switchMap } from 'rxjs';
import {
  type CallOptions,
  type ChatModel,
  type ChatRequest,
  type ModelCapabilities,
  modelInfoOf,
} from '../../core/index.ts';
import { httpClient } from '../../transport/index.ts';
import {
  BEDROCK_TOOL_NAME_RULE,
  countIn,
  createChatModel,
  env,
  postJson,
  type ProviderOptions,
  providerStream,
  providerOptionsOf,
  requestToolNames,
  trimSlash,
} from '../shared/index.ts';
import { type AwsCredentialsInput, awsCredentialsProvider, resolveAwsRegion } from './aws-credentials.ts';
import { bedrockCapabilities } from './bedrock-capabilities.ts';
import { bedrockCountTokensBody, bedrockInfoId } from './bedrock-count-tokens.ts';
import { createBedrockMapper } from './bedrock-chunk-mapper.ts';
import { parseBedrockErrorBody } from './bedrock-error-body.ts';
import { bedrockPriceOf } from './bedrock-prices.ts';
import { buildConverseRequest } from './bedrock-request.ts';
import { type EventStreamEvent, eventStreamDecoder } from './decode-event-stream.ts';
import { loadAwsModules } from './load-aws-modules.ts';
import { sigV4Sign } from './sign-request.ts';

/** Options of {@link bedrock}. */
export interface BedrockOptions extends ProviderOptions {
  /** The AWS region. @default process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION */
  region?: string;
  /**
   * SigV4 credentials, or a function returning them (called per request, so it may refresh).
   * @default AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, else the AWS SDK's
   * default chain (profiles, SSO, instance roles …) when `@aws-sdk/credential-providers` is installed
   */
  credentials?: AwsCredentialsInput;
  /**
   * A Bedrock API key, sent as `Authorization: Bearer` instead of SigV4 signing (ignored when
   * `credentials` is given). @default process.env.AWS_BEARER_TOKEN_BEDROCK
   */
  apiKey?: string;
  /** @default `https://bedrock-runtime.${region}.amazonaws.com` */
  baseURL?: string;
  /** Model-specific fields sent with every request (`additionalModelRequestFields`). */
  additionalModelRequestFields?: Record<string, unknown>;
  /** Overrides the capabilities known for the model family. */
  capabilities?: Partial<Omit<ModelCapabilities, 'streaming'>>;
  /** The SigV4 signing clock (tests, clock skew). @default () => new Date() */
  now?: () => Date;
}

/**
 * A chat model on Amazon Bedrock's Converse API (`POST {baseURL}/model/{modelId}/converse-stream`),
 * SigV4-signed; the binary AWS event stream is decoded with `@smithy/eventstream-codec`. The AWS
 * packages are optional peer dependencies, imported when a stream is subscribed (an
 * `InvalidRequestError` naming them when missing). Region and credentials are resolved per request,
 * so a missing one errors the stream with an `InvalidRequestError` rather than the factory.
 * @param modelId a model or inference-profile id (or ARN), e.g. `'us.anthropic.claude-sonnet-4-20250514-v1:0'`.
 * @example
 * const model = bedrock('amazon.nova-lite-v1:0', { region: 'us-east-1' });
 * const reply = await model.complete('Hello');
 */
export function bedrock(modelId: string, options: BedrockOptions = {}): ChatModel {
  const price = options.price ?? bedrockPriceOf(modelId);

  const apiKey =
    options.credentials === undefined ? (options.apiKey ?? env('AWS_BEARER_TOKEN_BEDROCK')) : undefined;
  const region = () => resolveAwsRegion(options.region);
  // One client per model: a Bedrock API key as a bearer token, else every request SigV4-signed just
  // before it is sent, over exactly the headers it is sent with (client, model and call merged).
  const client = httpClient({
    provider: 'bedrock',
    defaultHeaders: {
      accept: 'application/vnd.amazon.eventstream',
      ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
    },
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    parseErrorBody: parseBedrockErrorBody,
    ...(apiKey === undefined
      ? {
          sign: sigV4Sign({
            region,
            credentials: awsCredentialsProvider(options.credentials),
            ...(options.now ? { now: options.now } : {}),
          }),
        }
      : {}),
  });
  const modelURL = () =>
    `${trimSlash(options.baseURL ?? `https://bedrock-runtime.${region()}.amazonaws.com`)}/model/${encodeURIComponent(modelId)}`;
  const http = (body: unknown) => ({ url: `${modelURL()}/converse-stream`, body });
  const countTokens = async (request: ChatRequest, call: CallOptions = {}) => {
    const wire = providerOptionsOf(request, 'bedrock');
    const toolNames = requestToolNames(request, BEDROCK_TOOL_NAME_RULE);
    const converse = buildConverseRequest(request, wire, options.additionalModelRequestFields, toolNames);
    const headers = { accept: 'application/json', ...call.headers };
    return postJson(
      client,
      `${modelURL()}/count-tokens`,
      bedrockCountTokensBody(converse),
      (answer) => countIn('bedrock', answer, 'inputTokens'),
      { ...call, headers },
      options.timeoutMs,
    );
  };

  return createChatModel({
    provider: 'bedrock',
    modelId,
    capabilities: { ...bedrockCapabilities(modelId), ...options.capabilities },
    contextWindow: options.contextWindow ?? modelInfoOf(bedrockInfoId(modelId))?.contextWindow,
    countTokens,
    stream(request, call) {
      const wire = providerOptionsOf(request, 'bedrock');
      const toolNames = requestToolNames(request, BEDROCK_TOOL_NAME_RULE);
      // The AWS packages are optional peers: imported at subscribe time, before anything is sent.
      return defer(loadAwsModules).pipe(
        switchMap((aws) =>
          providerStream<EventStreamEvent>({
            provider: 'bedrock',
            model: modelId,
            price,
            client,
            http: () =>
              http(buildConverseRequest(request, wire, options.additionalModelRequestFields, toolNames)),
            decoder: eventStreamDecoder(aws),
            createMapper: () => createBedrockMapper(toolNames),
            options,
            call,
          }),
        ),
      );
    },
  });
}
