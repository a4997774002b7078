/**
 * README "Deploying on several machines": its TypeScript example runs as written (one process
 * playing worker and app server), against real Redis and a scripted OpenAI-compatible model on
 * 127.0.0.1. Only where it talks to is changed: the model's base URL and unique key prefixes.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openaiFrames } from '../agent/openai-sse.ts';
import { startTranscriptServer, type TranscriptServer } from '../support/transcript-server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const redisUrl = 'redis://127.0.0.1:6379';

/** The first ```ts block after the section's heading. */
async function deployingExample(): Promise<string> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Deploying on several machines'));
  const start = section.indexOf('```ts\n') + '```ts\n'.length;
  return section.slice(start, section.indexOf('\n```', start));
}

/** `code` with `from` replaced by `to`, where `from` occurs exactly once. */
function replaceOnce(code: string, from: string, to: string): string {
  expect(code.split(from), `the README example holds ${from} once`).toHaveLength(2);
  return code.replace(from, to);
}

describe('README: Deploying on several machines', () => {
  const prefix = `readme-durable-${randomUUID().slice(0, 8)}:`;
  let model: TranscriptServer | undefined;

  afterAll(async () => {
    await model?.close();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('its example starts a run that a worker in the same process completes, as written', async () => {
    model = await startTranscriptServer(() => ({
      chunks: openaiFrames({ text: ['Order 42 ', 'has shipped.'] }),
      delayMs: 5,
    }));
    let code = await deployingExample();
    code = replaceOnce(
      code,
      "openai('gpt-4o-mini')",
      `openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: '${model.url}/v1' })`,
    );
    code = replaceOnce(
      code,
      'redisSessionStore({ url })',
      `redisSessionStore({ url, prefix: '${prefix}s:' })`,
    );
    code = replaceOnce(
      code,
      'redisRunEventStore({ url })',
      `redisRunEventStore({ url, prefix: '${prefix}e:' })`,
    );
    code = replaceOnce(code, 'port: 6379 },', `port: 6379 }, prefix: '${prefix}q',`);
    const dir = join(root, '.test-output', 'readme-durable');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${prefix.slice(0, -1)}.ts`);
    await writeFile(file, `${code}\n`);

    const child = spawn(process.execPath, ['--conditions=rxagent-source', file], { cwd: root });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (part: string) => (output += part));
    child.stderr.setEncoding('utf8').on('data', (part: string) => (output += part));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      // The example prints each event's id and type; the worker never exits by itself.
      const deadline = Date.now() + 30_000;
      while (!/agent-completed/.test(output) && child.exitCode === null && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(output).toMatch(/:1 step-started/);
      expect(output).toMatch(/agent-completed/);
      expect(model.requests).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }, 45_000);
});
