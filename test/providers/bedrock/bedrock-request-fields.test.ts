import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assistant, message, toolMessage, user } from '../../../src/core/index.ts';
import { createBedrockMapper } from '../../../src/providers/bedrock/bedrock-chunk-mapper.ts';
import { buildConverseRequest } from '../../../src/providers/bedrock/bedrock-request.ts';
import { BEDROCK_TOOL_NAME_RULE, requestToolNames } from '../../../src/providers/shared/index.ts';

const tool = (name: string) => ({ name, description: 'd', parameters: { type: 'object', properties: {} } });

describe('buildConverseRequest: request fields of issue 7', () => {
  it('maps topP and a copied stop; topK, seed and penalties have no Converse field', () => {
    const stop = ['END'] as const;
    const body = buildConverseRequest({
      messages: 'x',
      topP: 0.7,
      topK: 5,
      seed: 1,
      frequencyPenalty: 1,
      stop,
    });
    expect(body.inferenceConfig).toEqual({ topP: 0.7, stopSequences: ['END'] });
    expect(body.inferenceConfig?.stopSequences).not.toBe(stop);
    expect(body).not.toHaveProperty('additionalModelRequestFields');
  });

  it('isError → status error; cache → a cachePoint after the message, also in system', () => {
    const body = buildConverseRequest({
      messages: [
        message({ role: 'system', content: 'Rules.', cache: true }),
        message({ role: 'user', content: 'Doc.', cache: true }),
        assistant('', [{ id: 't1', name: 'x', arguments: {} }]),
        toolMessage('t1', 'failed', { isError: true }),
      ],
    });
    expect(body.system).toEqual([{ text: 'Rules.' }, { cachePoint: { type: 'default' } }]);
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [{ text: 'Doc.' }, { cachePoint: { type: 'default' } }],
    });
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'failed' }], status: 'error' } }],
    });
  });

  it('image bytes are sent as base64 bytes', () => {
    const body = buildConverseRequest({
      messages: [
        user([{ type: 'image', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), mediaType: 'image/png' }]),
      ],
    });
    expect(body.messages[0]?.content).toEqual([{ image: { format: 'png', source: { bytes: 'iVBORw==' } } }]);
  });

  it('a zod response schema is described by its JSON Schema, not its internals', () => {
    const body = buildConverseRequest({
      messages: 'x',
      responseFormat: { type: 'json', schema: z.object({ n: z.number() }) },
    });
    const instruction = JSON.stringify(body.system);
    expect(instruction).toContain('\\"properties\\":{\\"n\\":{\\"type\\":\\"number\\"}}');
    expect(instruction).not.toContain('_zod');
  });

  it('names Converse refuses (dots, hyphens, a leading digit, > 64) are encoded and decoded back', () => {
    const names = ['github.search', 'get-weather', '9lives', `x${'y'.repeat(70)}`];
    const request = {
      messages: [
        user('go'),
        assistant('', [{ id: 'c1', name: names[0] as string, arguments: {} }]),
        toolMessage('c1', 'ok'),
      ],
      tools: names.map(tool),
      toolChoice: { name: 'get-weather' },
    };
    const toolNames = requestToolNames(request, BEDROCK_TOOL_NAME_RULE);
    const body = buildConverseRequest(request, {}, {}, toolNames);
    const sent = body.toolConfig?.tools.map((t) => t.toolSpec.name) ?? [];
    for (const name of sent) expect(name).toMatch(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/);
    expect(body.toolConfig?.toolChoice).toEqual({ tool: { name: sent[1] } });
    expect(body.messages[1]?.content[0]).toEqual({ toolUse: { toolUseId: 'c1', name: sent[0], input: {} } });
    const events = createBedrockMapper(toolNames).map({
      messageType: 'event',
      eventType: 'contentBlockStart',
      payload: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 'c9', name: sent[2] } } },
    } as never);
    expect(events[0]).toMatchObject({ type: 'tool-call-delta', id: 'c9', name: '9lives' });
  });

  it('the Bedrock rule round-trips any names (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 100 }), { maxLength: 10 }), (names) => {
        const codec = requestToolNames({ messages: 'x', tools: names.map(tool) }, BEDROCK_TOOL_NAME_RULE);
        const encoded = names.map((name) => codec.encode(name));
        for (const [i, name] of names.entries()) {
          expect(encoded[i]).toMatch(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/);
          expect(codec.decode(encoded[i] as string)).toBe(name);
        }
        expect(new Set(encoded).size).toBe(names.length);
      }),
    );
  });
});
