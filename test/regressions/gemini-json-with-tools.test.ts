// Review of issue 7: Gemini answers HTTP 400 "Function calling with a response mime type:
// 'application/json' is unsupported" (gemini-2.x), so a request with tools and a JSON reply must not
// combine functionDeclarations with responseMimeType / responseJsonSchema.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatRequest } from '../../src/index.ts';
import { toGeminiRequest } from '../../src/providers/gemini/to-gemini-request.ts';

const tools: ChatRequest['tools'] = [
  {
    name: 'lookup',
    description: 'Looks up',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
  },
];
const schema = z.object({ answer: z.string() });

describe('gemini: a JSON reply with tools', () => {
  it('sends the schema as an instruction, not as responseMimeType beside functionDeclarations', () => {
    const body = toGeminiRequest({
      messages: 'hi',
      system: 'Be brief.',
      tools,
      responseFormat: { type: 'json', schema },
    });
    expect(body.tools).toHaveLength(1);
    expect(body.generationConfig?.responseMimeType).toBeUndefined();
    expect(body.generationConfig?.responseJsonSchema).toBeUndefined();
    const instruction = body.systemInstruction?.parts.map((part) => part.text).join('\n') ?? '';
    expect(instruction).toContain('Be brief.');
    expect(instruction).toContain('JSON');
    expect(instruction).toContain('"answer"');
  });

  it('without tools keeps the native JSON mode', () => {
    const body = toGeminiRequest({ messages: 'hi', responseFormat: { type: 'json', schema } });
    expect(body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { answer: { type: 'string' } } },
    });
    expect(body.systemInstruction).toBeUndefined();
  });
});
