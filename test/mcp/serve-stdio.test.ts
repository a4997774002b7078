import { fileURLToPath } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { connectMcp } from '../../src/mcp/index.ts';

const example = fileURLToPath(new URL('../../examples/mcp/serve-registry.ts', import.meta.url));
const args = ['--conditions=rxagent-source', example];

describe('serveMcp over stdio', () => {
  it('connectMcp lists and calls the served registry, with progress', async () => {
    const client = await connectMcp({ name: 'example', command: process.execPath, args });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['add', 'countdown']);
    const events = await lastValueFrom(client.callTool('countdown', { n: 3 }).pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual(['progress', 'progress', 'result']);
    expect(events.at(-1)).toMatchObject({ content: [{ type: 'text', text: 'liftoff' }], isError: false });
    const invalid = await lastValueFrom(client.callTool('add', { a: 1 }));
    expect(invalid).toMatchObject({ type: 'result', isError: true });
    await client.close();
  });

  it('the v1 SDK client talks to it', async () => {
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(new V1Stdio({ command: process.execPath, args }));
    const result = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    expect(result.content).toEqual([{ type: 'text', text: '{"sum":42}' }]);
    await client.close();
  });
});
