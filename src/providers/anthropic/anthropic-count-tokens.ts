import type { AnthropicRequestBody } from './anthropic-wire.ts';

/**
 * The body of `POST /v1/messages/count_tokens` for a Messages request body: the same model,
 * messages, system prompt, tools, tool choice and thinking, without what only generation takes
 * (`max_tokens`, `stream`, sampling, stop sequences).
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export function anthropicCountTokensBody(body: AnthropicRequestBody): Record<string, unknown> {
  return {
    model: body.model,
    messages: body.messages,
    ...(body.system === undefined ? {} : { system: body.system }),
    ...(body.tools === undefined ? {} : { tools: body.tools }),
    ...(body.tool_choice === undefined ? {} : { tool_choice: body.tool_choice }),
    ...(body.thinking === undefined ? {} : { thinking: body.thinking }),
  };
}
