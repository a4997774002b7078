import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiFrames } from '../agent/openai-sse.ts';
import { startTranscriptServer, type TranscriptServer } from '../support/transcript-server.ts';
import { startTmux, type TmuxPane } from './tmux.ts';
import { shellQuote } from '../support/shell-quote.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const everything = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const longReply = Array.from({ length: 60 }, (_, i) => `word${i} `);

interface OpenAIMessage {
  role: string;
  content: unknown;
}

/** A fake OpenAI server: "echo" → a call of everything__echo; "long" → a slow reply; else a greeting. */
function fakeOpenAI(): Promise<TranscriptServer> {
  return startTranscriptServer((request) => {
    const { messages } = request.json as { messages: OpenAIMessage[] };
    const last = messages.at(-1);
    if (last?.role === 'tool') return { chunks: openaiFrames({ text: ['The echo ', 'said hi.'] }) };
    const said = typeof last?.content === 'string' ? last.content : '';
    if (said.includes('echo')) {
      return {
        chunks: openaiFrames({
          toolCalls: [{ id: 'call_1', name: 'everything__echo', arguments: '{"message":"hi"}' }],
        }),
      };
    }
    if (said.includes('long')) return { chunks: openaiFrames({ text: longReply }), delayMs: 150 };
    return { chunks: openaiFrames({ text: ['Hello! ', 'Nice to ', 'meet you.'] }), delayMs: 30 };
  });
}

const cli = (args: string, env: Record<string, string>) =>
  `cd ${shellQuote(root)} && env ${Object.entries(env)
    .map(([k, v]) => `${k}=${shellQuote(v)}`)
    .join(
      ' ',
    )} ${shellQuote(process.execPath)} --conditions=rxagent-source src/cli/main.ts ${args}; echo "EXITED $?"`;

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const clean = { ...process.env };
    for (const name of Object.keys(clean)) if (/_API_KEY$/.test(name)) delete clean[name];
    execFile(
      process.execPath,
      ['--conditions=rxagent-source', 'src/cli/main.ts', ...args],
      { cwd: root, env: { ...clean, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('rxagent chat in a terminal (tmux)', () => {
  let openai: TranscriptServer;
  let home: string;
  let config: string;
  const panes: TmuxPane[] = [];

  beforeAll(async () => {
    openai = await fakeOpenAI();
    home = mkdtempSync(join(tmpdir(), 'rxagent-cli-'));
    config = join(home, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
      }),
    );
  });
  afterAll(async () => {
    for (const pane of panes) pane.kill();
    await openai.close();
    rmSync(home, { recursive: true, force: true });
  });

  const start = () => {
    const pane = startTmux(
      `rxagent-cli-${process.pid}-${panes.length}`,
      cli(`chat --base-url ${openai.url}/v1 --mcp-config ${config} --session s1`, {
        RXAGENT_HOME: home,
        OPENAI_API_KEY: 'sk-test',
      }),
    );
    panes.push(pane);
    return pane;
  };

  it('streams replies, runs an approved tool, stops on Ctrl-C, and keeps the session', async () => {
    const pane = start();
    await pane.waitFor(/rxagent chat: openai\/gpt-4o-mini, \d+ MCP tools, session s1 \(0 messages\)/, 30_000);
    await pane.waitFor(/^>\s*$/m);

    pane.send('hi', { literal: true });
    pane.send('Enter');
    await pane.waitFor(/Hello! Nice to meet you\.\n>/);

    pane.send('please echo hi', { literal: true });
    pane.send('Enter');
    await pane.waitFor(/⚙ everything__echo\({"message":"hi"}\)\n\? allow everything__echo\? \[y\/N\]/);
    pane.send('y', { literal: true });
    pane.send('Enter');
    await pane.waitFor(/↳ ok: .*hi.*\nThe echo said hi\.\n>/);

    const aborted = openai.nextClientAbort();
    pane.send('say something long', { literal: true });
    pane.send('Enter');
    await pane.waitFor(/word2 /);
    pane.send('C-c');
    await pane.waitFor(/\[stopped\]\n>/);
    await aborted;
    expect(pane.text()).not.toContain('word59');

    pane.send('hi again', { literal: true });
    pane.send('Enter');
    await pane.waitFor(/you\.\n>[^\n]*\n[^]*you\.\n>\s*$/);
    // The session's earlier turns went out with it, the stopped one included (its message stays).
    const sent = (openai.requests.at(-1)!.json as { messages: OpenAIMessage[] }).messages;
    expect(sent.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      'hi',
      'please echo hi',
      'say something long',
      'hi again',
    ]);

    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);

    // A new process on the same session sees the history in the file store.
    const again = start();
    await again.waitFor(/session s1 \([1-9]\d* messages\)/, 30_000);
    again.send('C-c');
    await again.waitFor(/EXITED 130/);
  }, 180_000);

  it('says which variable to set when no key is there, and --demo runs without one', async () => {
    const missing = await runCli(['chat'], { RXAGENT_HOME: home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'rxagent: no API key: set OPENAI_API_KEY, or run with --demo for an offline model\n',
    );
    const unknown = await runCli(['chat', '--provider', 'nope'], { RXAGENT_HOME: home });
    expect(unknown.stderr).toMatch(
      /^rxagent: unknown provider "nope" \(one of: openai, anthropic, gemini, ollama\)\n$/,
    );
    const help = await runCli(['--help'], {});
    expect(help.stdout).toContain('Usage: rxagent chat [options]');
  }, 120_000);

  it('reports a bad MCP config file in one line', async () => {
    const bad = join(home, 'bad.json');
    writeFileSync(bad, '{"servers": {}}');
    const result = await runCli(['chat', '--demo', '--mcp-config', bad], { RXAGENT_HOME: home });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`rxagent: MCP config ${bad} has no "mcpServers" object\n`);
    const missing = await runCli(['chat', '--demo', '--mcp-config', join(home, 'nope.json')], {});
    expect(missing.stderr).toMatch(/^rxagent: cannot read MCP config .*nope\.json: ENOENT[^\n]*\n$/);
  }, 120_000);

  it('reports an unreachable model server in one line and keeps the chat open', async () => {
    const pane = startTmux(
      `rxagent-cli-${process.pid}-down`,
      cli('chat --base-url http://127.0.0.1:9/v1', { RXAGENT_HOME: home, OPENAI_API_KEY: 'sk-test' }),
    );
    panes.push(pane);
    await pane.waitFor(/^>\s*$/m, 30_000);
    pane.send('hi', { literal: true });
    pane.send('Enter');
    await pane.waitFor(/\nerror: [^\n]*127\.0\.0\.1:9[^\n]*\n>/, 60_000);
    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);
  }, 120_000);
});
