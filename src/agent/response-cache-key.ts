import type { ChatModel, ChatRequest } from '../core/index.ts';
import { sha256Hex } from '../core/web-crypto.ts';
import { byteViewsIn, bytesOfView, stableJson } from './stable-json.ts';

/**
 * Whether a turn may come from the response cache: sampling is off (temperature 0) and no tool
 * result is in the conversation (results of tools can differ between runs that look the same).
 */
export function isCacheable(request: ChatRequest): boolean {
  if (request.temperature !== 0) return false;
  return typeof request.messages === 'string' || !request.messages.some((message) => message.role === 'tool');
}

/**
 * The cache key of a turn: a SHA-256 (Web Crypto) of the model and the request with keys sorted;
 * bytes (images) enter it as their own SHA-256, so a 2 MB image costs one native hash, not 2 MB of
 * key text.
 */
export async function responseCacheKey(model: ChatModel, request: ChatRequest): Promise<string> {
  const normalized = {
    provider: model.provider,
    model: model.modelId,
    ...request,
    messages:
      typeof request.messages === 'string' ? [{ role: 'user', content: request.messages }] : request.messages,
  };
  const digests = new Map<ArrayBufferView, string>();
  for (const view of byteViewsIn(normalized.messages)) digests.set(view, await sha256Hex(bytesOfView(view)));
  return sha256Hex(stableJson(normalized, digests));
}
