import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { connectMcp } from '../../src/mcp/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { everythingStdio } from './reference-servers.ts';

describe('a server sampling through a model the host names (m14)', () => {
  it('sampling/createMessage is answered by the ChatModel, system prompt and messages passed', async () => {
    const model = scriptedModel([{ text: 'hello from the host model' }]);
    const client = await connectMcp(
      everythingStdio('sampler', { versionNegotiation: 'legacy', sampling: model }),
    );
    try {
      const result = await lastValueFrom(
        client.callTool('trigger-sampling-request', { prompt: 'say hi', maxTokens: 50 }),
      );
      expect(result).toMatchObject({ type: 'result', isError: false });
      expect(JSON.stringify(result)).toMatch(/hello from the host model/);
      const [request] = model.requests;
      expect(request?.system).toBe('You are a helpful test server.');
      expect(request?.maxOutputTokens).toBe(50);
      expect(JSON.stringify(request?.messages)).toMatch(/say hi/);
    } finally {
      await client.close();
    }
  });
});
