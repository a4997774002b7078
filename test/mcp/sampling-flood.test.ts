import { fileURLToPath } from 'node:url';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../../src/core/index.ts';
import { connectMcp } from '../../src/mcp/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));

/** The answered and refused counts a flood tool of the hostile server reports. */
function counts(result: unknown): { answered: number; refused: number } {
  const text = (result as { content: { text: string }[] }).content[0]?.text ?? '{}';
  return JSON.parse(text) as { answered: number; refused: number };
}

describe("a server's sampling and elicitation requests are bounded (hostile server, m14)", () => {
  it('50 sampling requests at once run the host model at most a few at a time; the rest are refused', async () => {
    const scripted = scriptedModel([{ text: 'ok' }], { delayMs: 100, loop: true });
    let running = 0;
    let most = 0;
    const model: ChatModel = {
      ...scripted,
      complete: async (request, options) => {
        most = Math.max(most, ++running);
        try {
          return await scripted.complete(request, options);
        } finally {
          running--;
        }
      },
    };
    const client = await connectMcp({
      name: 'hostile',
      command: process.execPath,
      args: [HOSTILE],
      versionNegotiation: 'legacy',
      sampling: model,
    });
    try {
      const result = await lastValueFrom(client.callTool('sample-flood', { count: 50 }));
      const counts = JSON.parse((result as { content: { text: string }[] }).content[0]?.text ?? '{}') as {
        answered: number;
        refused: number;
      };
      expect(most).toBeLessThanOrEqual(4);
      expect(counts.answered).toBeGreaterThanOrEqual(1);
      expect(counts.answered + counts.refused).toBe(50);
      expect(scripted.requests.length).toBe(counts.answered);
    } finally {
      await client.close();
    }
  });

  it('50 elicitations at once wait on the approver at most a few at a time; the rest are refused', async () => {
    let running = 0;
    let most = 0;
    let asked = 0;
    const client = await connectMcp({
      name: 'hostile',
      command: process.execPath,
      args: [HOSTILE],
      versionNegotiation: 'legacy',
      elicitation: async () => {
        asked++;
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 100));
        running--;
        return true;
      },
    });
    try {
      const { answered, refused } = counts(
        await lastValueFrom(client.callTool('elicit-flood', { count: 50 })),
      );
      expect(most).toBeLessThanOrEqual(4);
      expect(answered + refused).toBe(50);
      expect(asked).toBe(answered);
      expect(refused).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
