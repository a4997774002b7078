import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFrames } from '../agent/openai-sse.ts';
import { startTranscriptServer, type TranscriptServer } from '../support/transcript-server.ts';
import { bundleForBrowser, bundleProgram } from './bundle-program.ts';
import type { ProgramReport } from './program.ts';
import { runtimeBinary } from './runtime-packages.ts';
import { startWorkerd } from './start-workerd.ts';
import { chromiumPath } from '../support/chromium-path.ts';

const run = promisify(execFile);
const answer = '2 + 3 = 5';

/** What every runtime must report: the tool ran once, the answer streamed, the audit chain holds. */
function expectTheProgramRan(
  report: ProgramReport | { error: string },
  nodeOnly: 'ran' | 'UnsupportedRuntimeError',
) {
  expect(report).not.toHaveProperty('error');
  expect(report).toEqual({
    text: answer,
    events: expect.arrayContaining(['step-started', 'tool-result', 'text-delta', 'agent-completed']),
    toolResult: { sum: 5 },
    auditValid: true,
    auditEntries: 2,
    nodeOnly,
  });
}

let server: TranscriptServer;
let browserBundle: string;
let work: string;

beforeAll(async () => {
  browserBundle = await bundleProgram('browser');
  work = await mkdtemp(join(tmpdir(), 'rxagent-runtimes-'));
  // One scripted OpenAI-compatible server for every runtime, which also serves the browser's page.
  server = await startTranscriptServer((request) => {
    if (request.method === 'GET' && request.url === '/')
      return {
        headers: { 'content-type': 'text/html' },
        chunks: ['<script type="module" src="/program.js"></script>'],
      };
    if (request.method === 'GET' && request.url === '/program.js')
      return { headers: { 'content-type': 'text/javascript' }, chunks: [browserBundle] };
    if (request.method === 'GET') return { status: 404, chunks: [] };
    const { messages } = request.json as { messages: { role: string }[] };
    if (messages.at(-1)?.role === 'tool') return { chunks: openaiFrames({ text: ['2 + 3', ' = 5'] }) };
    return {
      chunks: openaiFrames({ toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' }] }),
    };
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the Web entries load no node: module', () => {
  // The Node-only pieces they hold (file stores, file audit logs, recordings on disk) reach their
  // node: modules through process.getBuiltinModule where they are used.
  for (const specifier of [
    'rxagent',
    'rxagent/openai',
    'rxagent/anthropic',
    'rxagent/gemini',
    'rxagent/ollama',
    'rxagent/bedrock',
    'rxagent/testing',
    'rxagent/http',
    'rxagent/ag-ui',
  ]) {
    it(`${specifier} bundles for the browser`, async () => {
      expect(await bundleForBrowser(specifier)).toBeGreaterThan(0);
    });
  }
});

describe('the same program in every runtime', () => {
  it('runs in headless Chromium from a browser bundle with no node: module', async (context) => {
    // Looked up here, not at load: without a browser only this test skips (or fails under CI=true).
    const browserPath = chromiumPath();
    if (browserPath === undefined) return context.skip();
    const browser = await chromium.launch({
      executablePath: browserPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/`);
      const handle = await page.waitForFunction(() => (globalThis as { __report?: unknown }).__report, null, {
        timeout: 20_000,
      });
      expectTheProgramRan((await handle.jsonValue()) as ProgramReport, 'UnsupportedRuntimeError');
    } finally {
      await browser.close();
    }
  }, 60_000);

  for (const name of ['deno', 'bun'] as const) {
    it(`runs in ${name}`, async () => {
      const binary = await runtimeBinary(name);
      const file = join(work, `${name}.mjs`);
      await writeFile(file, await bundleProgram('script'));
      const args =
        name === 'deno'
          ? [
              'run',
              '--no-config',
              '--no-prompt',
              '--allow-net=127.0.0.1',
              '--allow-read',
              file,
              `${server.url}/v1`,
            ]
          : [file, `${server.url}/v1`];
      const { stdout } = await run(binary, args, { timeout: 60_000, env: { PATH: process.env.PATH ?? '' } });
      expectTheProgramRan(JSON.parse(stdout) as ProgramReport, 'ran');
    }, 300_000);
  }

  it('runs in workerd (Cloudflare Workers, no nodejs_compat, no code generation)', async () => {
    const binary = await runtimeBinary('workerd');
    const port = await freePort();
    const workerd = await startWorkerd(binary, { dir: work, port, script: await bundleProgram('worker') });
    try {
      const response = await fetch(`${workerd.url}/?base=${encodeURIComponent(`${server.url}/v1`)}`);
      // Workers of this compatibility date offer node: modules through process.getBuiltinModule (a
      // virtual file system), so the Node-only piece loads there; code generation stays forbidden.
      expectTheProgramRan((await response.json()) as ProgramReport, 'ran');
    } finally {
      await workerd.close();
    }
  }, 300_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
