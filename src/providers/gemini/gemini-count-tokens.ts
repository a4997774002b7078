import type { GeminiRequestBody } from './gemini-wire.ts';

/**
 * The body of `POST {baseURL}/{model}:countTokens` for a generateContent body: a
 * `generateContentRequest` with the model, contents, system instruction, tools and tool config
 * (the form that counts the system instruction and tools too; generation settings are left out).
 * The answer's `totalTokens` is the request's input tokens.
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
 */
export function geminiCountTokensBody(path: string, body: GeminiRequestBody): Record<string, unknown> {
  return {
    generateContentRequest: {
      model: path,
      contents: body.contents,
      ...(body.systemInstruction === undefined ? {} : { systemInstruction: body.systemInstruction }),
      ...(body.tools === undefined ? {} : { tools: body.tools }),
      ...(body.toolConfig === undefined ? {} : { toolConfig: body.toolConfig }),
    },
  };
}
