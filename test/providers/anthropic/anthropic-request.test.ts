import { describe, expect, it } from 'vitest';
import {
  assistant,
  type ChatRequest,
  message,
  RxAgentError,
  system,
  toolMessage,
  user,
} from '../../../src/index.ts';
import { anthropicModelInfo } from '../../../src/providers/anthropic/anthropic-model-info.ts';
import { toAnthropicRequest } from '../../../src/providers/anthropic/to-anthropic-request.ts';

const build = (request: ChatRequest, settings: Partial<Parameters<typeof toAnthropicRequest>[2]> = {}) =>
  toAnthropicRequest('claude-sonnet-4-5', request, { maxOutputTokens: 4096, ...settings });

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const thinkingMetadata = {
  anthropic: {
    thinking: [
      { type: 'thinking', thinking: 'I should look it up.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque==' },
      { type: 'thinking', thinking: 42 }, // malformed: skipped
      'junk',
    ],
  },
  reasoning: 'I should look it up.',
};

describe('toAnthropicRequest', () => {
  it('sends a string conversation as one user message, with max_tokens and stream always set', () => {
    expect(build({ messages: 'Hi' })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    expect(build({ messages: 'Hi', maxOutputTokens: 100 }).max_tokens).toBe(100);
  });

  it('lifts request.system and every system message into the top-level system text', () => {
    const body = build({
      system: 'Be terse.',
      messages: [system('Answer in French.'), user('Hi'), system('Never guess.')],
    });
    expect(body.system).toBe('Be terse.\n\nAnswer in French.\n\nNever guess.');
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('merges consecutive turns of one role and drops empty messages', () => {
    const body = build({ messages: [user('One'), user('Two'), assistant(''), assistant('Three')] });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'Two' },
        ],
      },
      { role: 'assistant', content: 'Three' },
    ]);
  });

  it('sends tool calls as tool_use and consecutive tool results as one user turn of tool_result blocks', () => {
    const body = build({
      messages: [
        user('Weather and time in Paris?'),
        assistant('Checking.', [
          { id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'toolu_2', name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
        ]),
        toolMessage('toolu_1', '{"tempC":18}'),
        toolMessage('toolu_2', [{ type: 'text', text: '14:00' }]),
        user('Thanks, and tomorrow?'),
      ],
      tools: [weatherTool],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather and time in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: { timezone: 'Europe/Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"tempC":18}' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '14:00' }] },
          { type: 'text', text: 'Thanks, and tomorrow?' },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        input_schema: weatherTool.parameters,
      },
    ]);
  });

  it('refuses a tool message without its toolCallId', () => {
    const orphan = message({ role: 'tool', content: 'x' });
    expect(() => build({ messages: [orphan] })).toThrow(/toolCallId/);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [{ name: 'get_weather' }, { type: 'tool', name: 'get_weather' }],
  ] as const)('maps toolChoice %j to %j', (choice, wire) => {
    expect(build({ messages: 'Hi', tools: [weatherTool], toolChoice: choice }).tool_choice).toEqual(wire);
  });

  it('sends no tool_choice without tools', () => {
    expect(build({ messages: 'Hi', toolChoice: 'required' })).not.toHaveProperty('tool_choice');
  });

  it('maps images (URL, data URL, base64 with and without media type) and PDF / text documents', () => {
    const body = build({
      messages: [
        user([
          { type: 'text', text: 'Compare these.' },
          { type: 'image', url: 'https://example.com/cat.png' },
          { type: 'image', url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' },
          { type: 'image', data: '/9j/4AAQSkZJRg==' },
          { type: 'image', data: 'AAAA', mediaType: 'image/webp' },
          { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'report.pdf' },
          { type: 'file', data: btoa('plain words'), mediaType: 'text/plain' },
        ]),
      ],
    });
    expect(body.messages[0]?.content).toEqual([
      { type: 'text', text: 'Compare these.' },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGODlhAQABAAAAACw=' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQSkZJRg==' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'AAAA' } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' },
        title: 'report.pdf',
      },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
    ]);
  });

  it('refuses files Anthropic cannot read and images without a source, with a typed error', () => {
    const badFile = () => build({ messages: [user([{ type: 'file', data: 'AA', mediaType: 'audio/wav' }])] });
    expect(badFile).toThrow(RxAgentError);
    expect(badFile).toThrow(
      expect.objectContaining({ code: 'invalid_request', name: 'InvalidRequestError' }),
    );
    expect(() => build({ messages: [user([{ type: 'image' }])] })).toThrow(/url or data/);
  });

  it('maps temperature and stop sequences, and spreads providerOptions over the body', () => {
    const body = build(
      { messages: 'Hi', temperature: 0.2, stop: ['END'] },
      { wire: { top_k: 5, metadata: { user_id: 'u-1' }, stream: true } },
    );
    expect(body).toMatchObject({
      temperature: 0.2,
      stop_sequences: ['END'],
      top_k: 5,
      metadata: { user_id: 'u-1' },
    });
    expect(build({ messages: 'Hi', stop: [] })).not.toHaveProperty('stop_sequences');
  });

  describe('extended thinking', () => {
    it('enables thinking from the model option, adds the budget to max_tokens and leaves out temperature', () => {
      const body = build({ messages: 'Hi', temperature: 0.5 }, { thinking: { budgetTokens: 2048 } });
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
      expect(body.max_tokens).toBe(4096 + 2048);
      expect(body).not.toHaveProperty('temperature');
    });

    it('caps max_tokens at the model limit, but never below the reply tokens asked for', () => {
      const settings = {
        maxOutputTokens: 64_000,
        modelMaxOutputTokens: 64_000,
        thinking: { budgetTokens: 8000 },
      };
      expect(build({ messages: 'Hi' }, settings).max_tokens).toBe(64_000);
      expect(build({ messages: 'Hi', maxOutputTokens: 1000 }, settings).max_tokens).toBe(9000);
    });

    it('lets providerOptions.thinking override the model option, or turn it off', () => {
      const on = build({ messages: 'Hi' }, { wire: { thinking: { budgetTokens: 1024 } } });
      expect(on.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
      const off = build({ messages: 'Hi' }, { thinking: { budgetTokens: 4096 }, wire: { thinking: false } });
      expect(off).not.toHaveProperty('thinking');
      const raw = build({ messages: 'Hi' }, { wire: { thinking: { type: 'enabled', budget_tokens: 3000 } } });
      expect(raw.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    });

    it('sends kept thinking blocks back first in the assistant turn while thinking is on, and not otherwise', () => {
      const messages = [
        user('Weather?'),
        assistant(
          '',
          [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
          thinkingMetadata,
        ),
        toolMessage('toolu_1', '{"tempC":3}'),
      ];
      const on = build({ messages }, { thinking: { budgetTokens: 1024 } });
      expect(on.messages[1]?.content).toEqual([
        { type: 'thinking', thinking: 'I should look it up.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque==' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      ]);
      const off = build({ messages });
      expect(off.messages[1]?.content).toEqual([
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      ]);
    });
  });

  describe('JSON replies', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };

    it('adds a forced `json` tool whose input schema is the requested schema', () => {
      const body = build({ messages: 'Hi', responseFormat: { type: 'json', schema } });
      expect(body.tools).toEqual([expect.objectContaining({ name: 'json', input_schema: schema })]);
      expect(body.tool_choice).toEqual({ type: 'tool', name: 'json' });
    });

    it('accepts any object without a schema, and uses auto tool choice while thinking', () => {
      const body = build(
        { messages: 'Hi', responseFormat: { type: 'json' } },
        { thinking: { budgetTokens: 1024 } },
      );
      expect(body.tools?.[0]?.input_schema).toEqual({ type: 'object' });
      expect(body.tool_choice).toEqual({ type: 'auto' });
    });
  });
});

describe('anthropicModelInfo', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 64_000, true],
    ['claude-opus-4-1-20250805', 32_000, true],
    ['claude-opus-4-20250514', 32_000, true],
    ['claude-opus-4-5', 64_000, true],
    ['claude-haiku-4-5', 64_000, true],
    ['claude-3-7-sonnet-latest', 64_000, true],
    ['claude-3-5-sonnet-20241022', 8192, false],
    ['claude-3-5-haiku-latest', 8192, false],
    ['claude-3-opus-20240229', 4096, false],
    ['claude-3-haiku-20240307', 4096, false],
  ])('%s: max output %i, reasoning %s', (id, maxOutputTokens, reasoning) => {
    const info = anthropicModelInfo(id);
    expect(info.maxOutputTokens).toBe(maxOutputTokens);
    expect(info.knownModel).toBe(true);
    expect(info.capabilities).toEqual({ streaming: true, tools: true, vision: true, json: true, reasoning });
  });

  it('knows legacy models lack tools and vision, and takes unknown ids for current models', () => {
    expect(anthropicModelInfo('claude-2.1').capabilities).toMatchObject({ tools: false, vision: false });
    const unknown = anthropicModelInfo('my-proxy-alias');
    expect(unknown).toMatchObject({ maxOutputTokens: 4096, knownModel: false });
    expect(unknown.capabilities).toMatchObject({ tools: true, vision: true, reasoning: true });
  });
});
