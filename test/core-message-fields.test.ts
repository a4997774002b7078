import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ChatRequest,
  type ContentPart,
  generateToolCallId,
  message,
  type StandardSchemaV1,
  toolMessage,
  user,
} from '../src/core/index.ts';

describe('messages: fields of issue 7', () => {
  it('toolMessage(id, content, { isError }) marks a failed outcome; without it no isError key', () => {
    expect(toolMessage('c1', 'boom', { isError: true })).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      content: 'boom',
      isError: true,
    });
    expect(toolMessage('c1', 'ok')).not.toHaveProperty('isError');
    expect(toolMessage('c1', 'ok', { isError: false })).not.toHaveProperty('isError');
    expect(Object.isFrozen(toolMessage('c1', 'x', { isError: true }))).toBe(true);
  });

  it('message() copies the caller arrays and objects before freezing, never freezing them', () => {
    const content: ContentPart[] = [{ type: 'text', text: 'a' }];
    const toolCalls = [{ id: 'c', name: 'f', arguments: {} }];
    const metadata = { k: 1 };
    const made = message({ role: 'assistant', content, toolCalls, metadata, cache: true });
    expect(Object.isFrozen(made.content)).toBe(true);
    expect(Object.isFrozen(content)).toBe(false);
    expect(Object.isFrozen(toolCalls)).toBe(false);
    expect(Object.isFrozen(metadata)).toBe(false);
    content.push({ type: 'text', text: 'b' });
    expect(made.content).toHaveLength(1);
    expect(made.cache).toBe(true);
  });

  it('images and files as bytes or URL objects', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const made = user([
      { type: 'image', data: bytes, mediaType: 'image/png' },
      { type: 'image', url: new URL('https://example.com/a.png') },
      { type: 'file', data: bytes, mediaType: 'application/pdf', filename: 'a.pdf' },
    ]);
    expect(made.content).toHaveLength(3);
    expectTypeOf<Extract<ContentPart, { type: 'image' }>['data']>().toEqualTypeOf<
      string | Uint8Array | undefined
    >();
    expectTypeOf<Extract<ContentPart, { type: 'image' }>['url']>().toEqualTypeOf<string | URL | undefined>();
  });

  it('ChatRequest types: keyed providerOptions, readonly stop, Standard Schema response formats', () => {
    expectTypeOf<ChatRequest['providerOptions']>().toEqualTypeOf<
      { [provider: string]: Record<string, unknown> } | undefined
    >();
    expectTypeOf<readonly string[]>().toMatchTypeOf<NonNullable<ChatRequest['stop']>>();
    expectTypeOf<StandardSchemaV1>().toMatchTypeOf<
      NonNullable<NonNullable<ChatRequest['responseFormat']>['schema']>
    >();
  });

  it('generateToolCallId: call_ and 24 hex digits, unique', () => {
    const ids = Array.from({ length: 1000 }, generateToolCallId);
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(1000);
  });
});
