import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectMcp, type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';

describe('served registry tools at full level (m7)', () => {
  const deleted: string[] = [];
  let server: McpServerHandle;
  beforeAll(async () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        name: 'add',
        description: 'Adds.',
        input: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => ({ sum: a + b }),
      }),
    );
    registry.register(
      defineTool({
        name: 'delete_repo',
        description: 'Deletes a repository.',
        input: z.object({ repo: z.string() }),
        needsApproval: true,
        execute: ({ repo }) => {
          deleted.push(repo);
          return `deleted ${repo}`;
        },
      }),
    );
    server = await serveMcp(registry, { name: 'full', version: '1.0.0', http: { port: 0 } });
  });
  afterAll(() => server?.close());

  it('an object result is structuredContent as well as text', async () => {
    const client = await connectMcp({ name: 'c', url: server.url as string });
    const result = await lastValueFrom(client.callTool('add', { a: 1, b: 2 }));
    expect(result).toMatchObject({ type: 'result', isError: false, structuredContent: { sum: 3 } });
    await client.close();
  });

  for (const approved of [true, false]) {
    it(`connectMcp({ elicitation }) answers it through the approval channel (${String(approved)})`, async () => {
      const asked: string[] = [];
      const client = await connectMcp({
        name: 'host',
        url: server.url as string,
        versionNegotiation: 'legacy',
        elicitation: ({ toolCall }) => {
          asked.push(`${toolCall.name} ${JSON.stringify(toolCall.arguments)}`);
          return approved;
        },
      });
      const result = await lastValueFrom(client.callTool('delete_repo', { repo: `via-${String(approved)}` }));
      await client.close();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/^host:elicitation .*delete_repo/);
      expect(result).toMatchObject({ isError: !approved });
      expect(deleted.includes(`via-${String(approved)}`)).toBe(approved);
    });
  }

  for (const answer of ['accept', 'decline'] as const) {
    it(`a needsApproval tool asks a 2025 client through elicitation (${answer})`, async () => {
      const asked: string[] = [];
      const client = await connectMcp({
        name: 'approver',
        url: server.url as string,
        versionNegotiation: 'legacy',
        capabilities: { elicitation: {} },
        configure: (sdk) =>
          sdk.setRequestHandler('elicitation/create', (request) => {
            asked.push(request.params.message);
            return answer === 'accept'
              ? { action: 'accept', content: { approve: true } }
              : { action: 'decline' };
          }),
      });
      const result = await lastValueFrom(client.callTool('delete_repo', { repo: `r-${answer}` }));
      await client.close();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/delete_repo/);
      if (answer === 'accept') {
        expect(result).toMatchObject({
          isError: false,
          content: [{ type: 'text', text: 'deleted r-accept' }],
        });
        expect(deleted).toContain('r-accept');
      } else {
        expect(result).toMatchObject({ isError: true });
        expect(deleted).not.toContain('r-decline');
      }
    });
  }
});

describe('served media: a registry tool answers with image, audio and resource blocks (m7)', () => {
  const PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
  let server: McpServerHandle;
  beforeAll(async () => {
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        name: 'chart',
        description: 'A chart, a sound and two files.',
        input: z.object({}),
        execute: () => 'ok',
        toModelContent: () => [
          { type: 'text', text: 'The chart:' },
          { type: 'image', data: PNG, mediaType: 'image/png' },
          { type: 'file', data: new Uint8Array([82, 73, 70, 70]), mediaType: 'audio/wav' },
          { type: 'file', data: btoa('{"a":1}'), mediaType: 'application/json', filename: 'data.json' },
          {
            type: 'file',
            data: new Uint8Array([0, 1, 2]),
            mediaType: 'application/octet-stream',
            filename: 'x.bin',
          },
        ],
      }),
    );
    server = await serveMcp(registry, { name: 'media', version: '1.0.0', http: { port: 0 } });
  });
  afterAll(() => server?.close());

  it('each part keeps its kind instead of a bracketed summary', async () => {
    const client = await connectMcp({ name: 'c', url: server.url as string });
    try {
      const result = await lastValueFrom(client.callTool('chart', {}));
      expect(result).toMatchObject({
        type: 'result',
        isError: false,
        content: [
          { type: 'text', text: 'The chart:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
          {
            type: 'resource',
            resource: { uri: 'attachment:data.json', mimeType: 'application/json', text: '{"a":1}' },
          },
          { type: 'resource', resource: { uri: 'attachment:x.bin', blob: 'AAEC' } },
        ],
      });
    } finally {
      await client.close();
    }
  });
});
