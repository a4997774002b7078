import { createHash } from 'node:crypto';
import type { ChatModel, ChatRequest } from '../core/index.ts';
import { stableJson } from './stable-json.ts';

/**
 * Whether a turn may come from the response cache: sampling is off (temperature 0) and no tool
 * result is in the conversation (results of tools can differ between runs that look the same).
 */
export function isCacheable(request: ChatRequest): boolean {
  if (request.temperature !== 0) return false;
  return typeof request.messages === 'string' || !request.messages.some((message) => message.role === 'tool');
}

/** The cache key of a turn: a SHA-256 of the model and the request with keys sorted. */
export function responseCacheKey(model: ChatModel, request: ChatRequest): string {
  const normalized = {
    provider: model.provider,
    model: model.modelId,
    ...request,
    messages:
      typeof request.messages === 'string' ? [{ role: 'user', content: request.messages }] : request.messages,
  };
  return createHash('sha256').update(stableJson(normalized)).digest('hex');
}
