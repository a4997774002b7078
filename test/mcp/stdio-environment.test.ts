import { fileURLToPath } from 'node:url';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpStdioOptions } from '../../src/mcp/index.ts';

const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-2025-server.mjs', import.meta.url));

/** What the server process sees of one environment variable. */
async function seen(options: Partial<McpStdioOptions>, name: string): Promise<unknown> {
  const client = await connectMcp({ name: 'env', command: process.execPath, args: [MINIMAL], ...options });
  try {
    const result = await lastValueFrom(client.callTool('env', { name }));
    if (result.type !== 'result' || result.content[0]?.type !== 'text') throw new Error('no text');
    return JSON.parse(result.content[0].text) as unknown;
  } finally {
    await client.close();
  }
}

describe('a stdio server gets a clean environment (M3)', () => {
  beforeAll(() => {
    process.env.OPENAI_API_KEY = 'sk-host-secret';
    process.env.AWS_SECRET_ACCESS_KEY = 'aws-host-secret';
  });
  afterAll(() => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it("the host's keys stay in the host; PATH and HOME pass, and so does the env it is given", async () => {
    expect(await seen({}, 'OPENAI_API_KEY')).toBeNull();
    expect(await seen({}, 'AWS_SECRET_ACCESS_KEY')).toBeNull();
    expect(await seen({}, 'PATH')).toBe(process.env.PATH);
    expect(await seen({}, 'HOME')).toBe(process.env.HOME);
    expect(await seen({ env: { API_TOKEN: 'given' } }, 'API_TOKEN')).toBe('given');
  });

  it('inheritEnv opts in: everything, or the names listed', async () => {
    expect(await seen({ inheritEnv: true }, 'OPENAI_API_KEY')).toBe('sk-host-secret');
    expect(await seen({ inheritEnv: ['OPENAI_API_KEY'] }, 'OPENAI_API_KEY')).toBe('sk-host-secret');
    expect(await seen({ inheritEnv: ['OPENAI_API_KEY'] }, 'AWS_SECRET_ACCESS_KEY')).toBeNull();
  });
});
