import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.ts';
import type { ContentPart } from '../../src/core/index.ts';
import { SecurityPolicy } from '../../src/security/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import {
  contentSummary,
  defineTool,
  interruptedOutcome,
  memoryAuditStore,
  TOOL_OUTCOME_STATUSES,
  type ToolCallOutcomeRecord,
  ToolRegistry,
} from '../../src/tools/index.ts';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const PNG_BASE64 = Buffer.from(PNG).toString('base64');

const chart = defineTool({
  name: 'chart',
  description: 'Draws a chart.',
  input: { type: 'object' },
  execute: () => ({ png: PNG, caption: 'sales, key sk-secret1' }),
  toModelContent: (drawn): ContentPart[] => [
    { type: 'text', text: drawn.caption },
    { type: 'image', data: drawn.png, mediaType: 'image/png' },
    { type: 'file', data: 'UklGRg==', mediaType: 'audio/wav', filename: 'beep.wav' },
  ],
});
const call = { id: 'c1', name: 'chart', arguments: {} };

describe('tool outcomes with media', () => {
  it('keeps the parts of toModelContent as the content, text filtered, media bytes as base64', async () => {
    const policy = new SecurityPolicy({ contentFilter: (text) => text.replaceAll(/sk-\w+/g, '[key]') });
    const outcome = await new ToolRegistry({ policy }).register(chart).invoke(call);
    expect(outcome.status).toBe('ok');
    const expected = [
      { type: 'text', text: 'sales, key [key]' },
      { type: 'image', data: PNG_BASE64, mediaType: 'image/png' },
      { type: 'file', data: 'UklGRg==', mediaType: 'audio/wav', filename: 'beep.wav' },
    ];
    expect(outcome.content).toEqual(expected);
    // An outcome travels as JSON (SSE, event logs, queues) and comes back the same.
    expect(JSON.parse(JSON.stringify(outcome)).content).toEqual(expected);
  });

  it('caps the text parts at maxResultBytes and keeps the media whole', async () => {
    const long = defineTool({
      name: 'long',
      description: '',
      input: { type: 'object' },
      execute: () => 'x'.repeat(500),
      toModelContent: (text) => [
        { type: 'text', text },
        { type: 'image', data: PNG, mediaType: 'image/png' },
      ],
    });
    const outcome = await new ToolRegistry({ maxResultBytes: 100 })
      .register(long)
      .invoke({ ...call, name: 'long' });
    expect(outcome.truncated).toBe(true);
    const [text, image] = outcome.content as ContentPart[];
    expect(text?.type === 'text' && Buffer.byteLength(text.text)).toBeLessThanOrEqual(100);
    expect(image).toEqual({ type: 'image', data: PNG_BASE64, mediaType: 'image/png' });
  });

  it('audits a summary of the media, never the bytes', async () => {
    const audit = memoryAuditStore();
    await new ToolRegistry({ audit }).register(chart).invoke(call);
    const record = (await audit.list()).find((r): r is ToolCallOutcomeRecord => r.type === 'outcome');
    expect((record?.data as { result: string }).result).toBe(
      'sales, key sk-secret1\n[image image/png, 12 bytes]\n[file beep.wav audio/wav, 4 bytes]',
    );
  });

  it('makes a toModelContent that returns something else an error outcome', async () => {
    const bad = defineTool({
      name: 'bad',
      description: '',
      input: { type: 'object' },
      execute: () => 1,
      toModelContent: () => [{ type: 'video' }] as never,
    });
    const outcome = await new ToolRegistry().register(bad).invoke({ ...call, name: 'bad' });
    expect(outcome).toMatchObject({
      status: 'error',
      error: { message: 'The toModelContent of bad failed' },
    });
  });

  it('carries the parts in the tool message the agent sends back', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'chart' }] }, { text: 'done' }]);
    await new Agent({ model, tools: [chart] }).chat('draw');
    const toolMessage = (model.requests[1]?.messages as readonly { role: string }[]).at(-1);
    expect(toolMessage).toMatchObject({
      role: 'tool',
      content: [
        { type: 'text' },
        { type: 'image', data: PNG_BASE64 },
        { type: 'file', mediaType: 'audio/wav' },
      ],
    });
  });

  it('has an interrupted status that tells the model the call may have taken effect', () => {
    expect(TOOL_OUTCOME_STATUSES).toContain('interrupted');
    const outcome = interruptedOutcome({ id: 'c9', name: 'charge_card' });
    expect(outcome).toMatchObject({ status: 'interrupted', toolCallId: 'c9', name: 'charge_card' });
    expect(JSON.parse(contentSummary(outcome.content))).toEqual({
      error: 'interrupted',
      message: expect.stringContaining('may or may not have taken effect'),
    });
  });
});
