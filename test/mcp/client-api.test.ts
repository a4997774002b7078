import { filter, firstValueFrom, lastValueFrom, timeout } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpClient } from '../../src/mcp/index.ts';
import { everythingStdio } from './reference-servers.ts';

describe('the client API a host needs (m14)', () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connectMcp(everythingStdio('api', { versionNegotiation: 'legacy' }));
  });
  afterAll(() => client?.close());

  it('lists resource templates, completes an argument, pings', async () => {
    expect((await client.listResourceTemplates()).length).toBeGreaterThan(0);
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(completion.values).toEqual(['Engineering']);
    await client.ping();
  });

  it('subscribes to a resource (updates as a stream) and sets the log level (logs as a stream)', async () => {
    const [template] = await client.listResources();
    const uri = template?.uri as string;
    await client.setLoggingLevel('debug');
    const logged = firstValueFrom(client.logs$.pipe(timeout(10_000)));
    const updated = firstValueFrom(
      client.resourceUpdated$.pipe(
        filter((each) => each === uri),
        timeout(10_000),
      ),
    );
    await client.subscribeResource(uri);
    expect(await logged).toMatchObject({ level: expect.any(String) });
    await lastValueFrom(client.callTool('toggle-subscriber-updates', {}));
    expect(await updated).toBe(uri);
    await client.unsubscribeResource(uri);
  });
});
