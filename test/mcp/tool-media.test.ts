import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentPart } from '../../src/core/index.ts';
import { connectMcp, type McpClient } from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';
import { everythingStdio } from './reference-servers.ts';

describe('media from MCP tools reach the model as media (M8)', () => {
  let client: McpClient;
  const registry = new ToolRegistry();
  beforeAll(async () => {
    client = await connectMcp(everythingStdio('media'));
    for (const tool of client.tools({ prefix: 'e__' })) registry.register(tool);
  });
  afterAll(() => client?.close());

  it('an image block is an image part with its bytes, beside the text', async () => {
    const outcome = await registry.invoke({ id: 'i1', name: 'e__get-tiny-image', arguments: {} });
    expect(outcome.status).toBe('ok');
    expect(Array.isArray(outcome.content)).toBe(true);
    const parts = outcome.content as readonly ContentPart[];
    const image = parts.find((part) => part.type === 'image');
    expect(image).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(typeof image?.data === 'string' && image.data.length).toBeGreaterThan(1_000);
    expect(parts.some((part) => part.type === 'text' && /image/i.test(part.text))).toBe(true);
    expect(JSON.stringify(parts)).not.toMatch(/"bytes":/);
  });

  it('resource links name their URI for the model; a structured result is the outcome value', async () => {
    const links = await registry.invoke({ id: 'i2', name: 'e__get-resource-links', arguments: { count: 2 } });
    expect(links.status).toBe('ok');
    expect(JSON.stringify(links.content)).toMatch(/demo:\/\/resource/);
    const structured = await registry.invoke({
      id: 'i3',
      name: 'e__get-structured-content',
      arguments: { location: 'New York' },
    });
    expect(structured.status).toBe('ok');
    // The tool has an output schema: its result is the structured content, checked against it.
    expect(structured.result).toMatchObject({ temperature: expect.any(Number) });
    expect(JSON.stringify(structured.content)).toMatch(/temperature/);
  });
});
