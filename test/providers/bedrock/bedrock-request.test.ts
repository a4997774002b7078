import { describe, expect, it } from 'vitest';
import { assistant, message, system, toolMessage, user } from '../../../src/index.ts';
import { bedrockCapabilities } from '../../../src/providers/bedrock/bedrock-capabilities.ts';
import { parseBedrockErrorBody } from '../../../src/providers/bedrock/bedrock-error-body.ts';
import { bedrockBaseModelId, bedrockPriceOf } from '../../../src/providers/bedrock/bedrock-prices.ts';
import { buildConverseRequest } from '../../../src/providers/bedrock/bedrock-request.ts';

const tool = { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } };

describe('buildConverseRequest', () => {
  it('converts content parts, system messages, and merges consecutive turns of one role', () => {
    const body = buildConverseRequest({
      system: 'Top.',
      messages: [
        system('Also this.'),
        user([
          { type: 'text', text: 'Look:' },
          { type: 'image', data: 'iVBO', mediaType: 'image/png' },
          { type: 'image', url: 'data:image/jpeg;base64,/9j/' },
          { type: 'file', data: 'JVBERi0', mediaType: 'application/pdf', filename: 'Q3 report (final).pdf' },
          { type: 'file', data: 'YSxi', mediaType: 'text/csv' },
          { type: 'text', text: '' },
        ]),
        user('And?'),
        assistant('', [
          { id: 't1', name: 'get_weather', arguments: { city: 'Oslo' } },
          { id: 't2', name: 'get_weather', arguments: { city: 'Rome' } },
        ]),
        toolMessage('t1', '{"tempC":3}'),
        toolMessage('t2', [{ type: 'text', text: 'warm' }]),
        user('Thanks'),
      ],
    });
    expect(body.system).toEqual([{ text: 'Top.' }, { text: 'Also this.' }]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { text: 'Look:' },
          { image: { format: 'png', source: { bytes: 'iVBO' } } },
          { image: { format: 'jpeg', source: { bytes: '/9j/' } } },
          { document: { format: 'pdf', name: 'Q3 report (final)', source: { bytes: 'JVBERi0' } } },
          { document: { format: 'csv', name: 'document-2', source: { bytes: 'YSxi' } } },
          { text: 'And?' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { toolUse: { toolUseId: 't1', name: 'get_weather', input: { city: 'Oslo' } } },
          { toolUse: { toolUseId: 't2', name: 'get_weather', input: { city: 'Rome' } } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 't1', content: [{ text: '{"tempC":3}' }] } },
          { toolResult: { toolUseId: 't2', content: [{ text: 'warm' }] } },
          { text: 'Thanks' },
        ],
      },
    ]);
  });

  it('refuses unsupported content with a typed error', () => {
    const cases = [
      user([{ type: 'image', url: 'https://example.com/cat.png' }]),
      user([{ type: 'image', data: 'AAAA', mediaType: 'image/tiff' }]),
      user([{ type: 'file', data: 'AAAA', mediaType: 'application/zip' }]),
    ];
    for (const m of cases) {
      expect(() => buildConverseRequest({ messages: [m] })).toThrow(
        expect.objectContaining({ code: 'invalid_request', name: 'InvalidRequestError' }),
      );
    }
  });

  it('maps tool choice; none keeps unforced tools only when the history has tool blocks', () => {
    const tools = [tool];
    expect(buildConverseRequest({ messages: 'x', tools }).toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'get_weather',
            description: 'Weather',
            inputSchema: { json: { type: 'object' } },
          },
        },
      ],
    });
    expect(
      buildConverseRequest({ messages: 'x', tools, toolChoice: { name: 'get_weather' } }).toolConfig
        ?.toolChoice,
    ).toEqual({
      tool: { name: 'get_weather' },
    });
    expect(buildConverseRequest({ messages: 'x', tools, toolChoice: 'none' })).not.toHaveProperty(
      'toolConfig',
    );
    const history = [
      user('w?'),
      assistant('', [{ id: 't', name: 'get_weather', arguments: {} }]),
      toolMessage('t', '1'),
    ];
    const kept = buildConverseRequest({ messages: history, tools, toolChoice: 'none' }).toolConfig;
    expect(kept?.tools).toHaveLength(1);
    expect(kept).not.toHaveProperty('toolChoice');
  });

  it('turns responseFormat into a system instruction and merges provider options', () => {
    const body = buildConverseRequest(
      { messages: 'x', responseFormat: { type: 'json', schema: { type: 'object' } }, temperature: 0 },
      {
        inferenceConfig: { topP: 0.9 },
        additionalModelRequestFields: { top_k: 5 },
        requestMetadata: { team: 'a' },
      },
      { top_k: 1, foo: true },
    );
    expect(body.system).toEqual([
      {
        text: 'Answer with a single JSON value and nothing else matching this JSON Schema: {"type":"object"}.',
      },
    ]);
    expect(body.inferenceConfig).toEqual({ temperature: 0, topP: 0.9 });
    expect(body.additionalModelRequestFields).toEqual({ top_k: 5, foo: true });
    expect(body.requestMetadata).toEqual({ team: 'a' });
    expect(buildConverseRequest({ messages: 'x', responseFormat: { type: 'json' } }).system).toEqual([
      { text: 'Answer with a single JSON value and nothing else.' },
    ]);
  });

  it('sends back reasoning only with its signature', () => {
    const plain = message({ role: 'assistant', content: 'ok', metadata: { reasoning: 'thought' } });
    expect(buildConverseRequest({ messages: [plain] }).messages[0]?.content).toEqual([{ text: 'ok' }]);
    const unsigned = message({
      role: 'assistant',
      content: 'ok',
      metadata: { reasoning: 'r', bedrock: { reasoning: [{ text: 'r', signature: '' }] } },
    });
    expect(buildConverseRequest({ messages: [unsigned] }).messages[0]?.content).toEqual([{ text: 'ok' }]);
  });
});

describe('parseBedrockErrorBody', () => {
  it('reads message and error type from body and header', () => {
    expect(
      parseBedrockErrorBody(
        '{"message":"Bad model"}',
        new Headers({
          'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
        }),
      ),
    ).toEqual({ message: 'Bad model', errorType: 'ValidationException' });
    expect(
      parseBedrockErrorBody('{"Message":"Denied","__type":"com.amazon.coral#AccessDeniedException"}'),
    ).toEqual({
      message: 'Denied',
      errorType: 'AccessDeniedException',
    });
    expect(parseBedrockErrorBody('<html>')).toBeUndefined();
    expect(parseBedrockErrorBody('{}')).toBeUndefined();
  });
});

describe('bedrock model families', () => {
  it('strips ARNs and cross-region prefixes, keeping the vendor', () => {
    expect(bedrockBaseModelId('us.anthropic.claude-sonnet-4-20250514-v1:0')).toBe(
      'anthropic.claude-sonnet-4-20250514-v1:0',
    );
    expect(
      bedrockBaseModelId('arn:aws:bedrock:us-east-1:123:inference-profile/eu.amazon.nova-pro-v1:0'),
    ).toBe('amazon.nova-pro-v1:0');
    expect(bedrockBaseModelId('global.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe(
      'anthropic.claude-haiku-4-5-20251001-v1:0',
    );
  });

  it('knows prices for Claude and Nova', () => {
    expect(bedrockPriceOf('anthropic.claude-sonnet-4-20250514-v1:0')).toMatchObject({
      inputPerMTok: 3,
      outputPerMTok: 15,
    });
    expect(bedrockPriceOf('us.amazon.nova-micro-v1:0')).toEqual({
      inputPerMTok: 0.035,
      outputPerMTok: 0.14,
      cachedInputPerMTok: 0.00875,
    });
    expect(bedrockPriceOf('cohere.command-r-v1:0')).toBeUndefined();
    // Exact ids only: a newer revision or another vendor's model of a similar name has no price.
    expect(bedrockPriceOf('anthropic.claude-sonnet-4-20250514-v2:0')).toBeUndefined();
    expect(bedrockPriceOf('amazon.nova-micro-v1:0:128k')).toBeUndefined();
  });

  it('has capabilities per family', () => {
    expect(bedrockCapabilities('anthropic.claude-3-5-haiku-20241022-v1:0')).toEqual({
      streaming: true,
      tools: true,
      vision: true,
      json: false,
      reasoning: false,
    });
    expect(bedrockCapabilities('us.anthropic.claude-3-7-sonnet-20250219-v1:0').reasoning).toBe(true);
    expect(bedrockCapabilities('anthropic.claude-v2:1')).toMatchObject({ tools: false, vision: false });
    expect(bedrockCapabilities('amazon.nova-micro-v1:0')).toMatchObject({ tools: true, vision: false });
    expect(bedrockCapabilities('amazon.nova-pro-v1:0')).toMatchObject({ vision: true });
    expect(bedrockCapabilities('meta.llama3-2-90b-instruct-v1:0')).toMatchObject({
      tools: true,
      vision: true,
    });
    expect(bedrockCapabilities('meta.llama3-8b-instruct-v1:0')).toMatchObject({ tools: false });
    expect(bedrockCapabilities('mistral.pixtral-large-2502-v1:0')).toMatchObject({
      tools: true,
      vision: true,
    });
    expect(bedrockCapabilities('mistral.mistral-7b-instruct-v0:2')).toMatchObject({ tools: false });
    expect(bedrockCapabilities('us.deepseek.r1-v1:0')).toMatchObject({ tools: false, reasoning: true });
    expect(bedrockCapabilities('cohere.command-r-plus-v1:0')).toMatchObject({ tools: true, vision: false });
  });

  it('sends a tool-loop request without thinking when its tool turn has no reasoning block (after a fallback)', () => {
    const thinking = { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2048 } } };
    const history = [
      user('Weather in Oslo?'),
      assistant('', [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }]),
      toolMessage('call_1', '{"tempC":4}'),
    ];
    const adapted = buildConverseRequest({ messages: history, tools: [tool] }, thinking);
    expect(adapted.additionalModelRequestFields).toBeUndefined();
    const fresh = buildConverseRequest({ messages: history.slice(0, 1), tools: [tool] }, thinking);
    expect(fresh.additionalModelRequestFields).toEqual(thinking.additionalModelRequestFields);
  });
});
