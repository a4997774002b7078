import { type ChatRequest, estimateTokens } from '../../core/index.ts';
import type { OpenAIContentPart } from './to-openai-messages.ts';
import type { OpenAIRequestBody } from './to-openai-request.ts';

/** What rxagent uses of a `gpt-tokenizer` encoding. */
interface Encoding {
  countTokens(text: string): number;
}

type EncodingName = 'o200k_base' | 'cl100k_base';

/** Tokens of an image part at high detail (1024×1024: 85 + 4 tiles × 170), the API's documented rate. */
const IMAGE_TOKENS = 765;
/** Tokens every chat message adds, and the reply's priming (OpenAI cookbook, "counting tokens"). */
const PER_MESSAGE = 3;
const PER_REPLY = 3;

/** The tokenizer of an OpenAI model id, or `undefined` for ids it does not know (other servers' models). */
export function openAIEncodingOf(modelId: string): EncodingName | undefined {
  const id = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)/.test(id)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)/.test(id)) return 'cl100k_base';
  return undefined;
}

const loaded = new Map<EncodingName, Promise<Encoding | undefined>>();

/** The encoding, imported on first use; `undefined` when the optional `gpt-tokenizer` is not installed. */
function encoding(name: EncodingName): Promise<Encoding | undefined> {
  let promise = loaded.get(name);
  if (!promise) {
    // The specifier is a variable so that bundlers leave it out: an encoding is megabytes, and a
    // browser bundle of rxagent/openai must not carry it (it counts with the estimate instead).
    const specifier: string = `gpt-tokenizer/encoding/${name}`;
    const module = import(/* @vite-ignore */ specifier) as Promise<Encoding>;
    promise = module.catch(() => undefined);
    loaded.set(name, promise);
  }
  return promise;
}

function partTokens(encoder: Encoding, part: OpenAIContentPart): number {
  switch (part.type) {
    case 'text':
      return encoder.countTokens(part.text);
    case 'image_url':
      return IMAGE_TOKENS;
    case 'input_audio':
    case 'file':
      return Math.ceil(JSON.stringify(part).length / 3);
    default: {
      const never: never = part;
      return never;
    }
  }
}

/** The input tokens of a Chat Completions body, by the model's tokenizer and the chat framing. */
export function countOpenAIBody(encoder: Encoding, body: OpenAIRequestBody): number {
  let tokens = PER_REPLY;
  for (const message of body.messages) {
    tokens += PER_MESSAGE + encoder.countTokens(message.role);
    const { content } = message;
    if (typeof content === 'string') tokens += encoder.countTokens(content);
    else if (Array.isArray(content)) for (const part of content) tokens += partTokens(encoder, part);
    if (message.role === 'assistant' && message.tool_calls)
      tokens += encoder.countTokens(JSON.stringify(message.tool_calls));
  }
  if (body['tools'] !== undefined) tokens += encoder.countTokens(JSON.stringify(body['tools']));
  if (body['response_format'] !== undefined)
    tokens += encoder.countTokens(JSON.stringify(body['response_format']));
  return tokens;
}

/**
 * A `countTokens` for an OpenAI-wire model: OpenAI's own models are counted with their tokenizer
 * (`gpt-tokenizer`, an optional peer dependency loaded on first use: `o200k_base` for GPT-4o, 4.1,
 * 5 and the o-series, `cl100k_base` for GPT-4 and 3.5) over the body as it would be sent. Other
 * models (an `openaiCompatible` server's Llama or Mistral), and every model when `gpt-tokenizer`
 * is not installed, get `estimateTokens`, a cautious documented estimate.
 */
export function openAICountTokens(
  modelId: string,
  bodyOf: (request: ChatRequest) => OpenAIRequestBody,
): (request: ChatRequest) => Promise<number> {
  const name = openAIEncodingOf(modelId);
  return async (request) => {
    const encoder = name === undefined ? undefined : await encoding(name);
    return encoder ? countOpenAIBody(encoder, bodyOf(request)) : estimateTokens(request);
  };
}
