import { execFile, execFileSync, spawn } from 'node:child_process';
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
const messagesOf = (server: TranscriptServer, index: number) =>
  (server.requests.at(index)!.json as { messages: OpenAIMessage[] }).messages;

/** A fake OpenAI server: "long" → a slow reply; "echo" → a call with a long argument; else a greeting. */
function fakeOpenAI(): Promise<TranscriptServer> {
  return startTranscriptServer((request) => {
    const { messages } = request.json as { messages: OpenAIMessage[] };
    const last = messages.at(-1);
    if (last?.role === 'tool') return { chunks: openaiFrames({ text: ['Echoed.'] }) };
    const said = typeof last?.content === 'string' ? last.content : '';
    // A hostile model: a window title, colours, a bell, backspaces and a carriage return that
    // overwrites the line; then a tool whose name is an escape sequence.
    if (said.includes('escape codes'))
      return {
        chunks: openaiFrames({
          text: ['Hi \x1b]0;PWNED\x07', '\x1b[31mred\x1b[0m\x07 ba\b\bXX', ' \x9b2J\r\nOK'],
        }),
      };
    // A hostile model that turns the terminal's bracketed paste off (7-bit and 8-bit CSI), so that
    // a block pasted next would be sent line by line, the first at once.
    if (said.includes('paste off'))
      return { chunks: openaiFrames({ text: ['Paste \x1b[?2004l', '\x9b?2004l\x1b[201~ done.'] }) };
    if (said.includes('escape tool'))
      return {
        chunks: openaiFrames({ toolCalls: [{ id: 'call_e', name: 'x\x1b[2Jy', arguments: '{}' }] }),
      };
    if (said.includes('slow tool'))
      return {
        chunks: openaiFrames({
          toolCalls: [
            {
              id: 'call_2',
              name: 'everything__trigger-long-running-operation',
              arguments: JSON.stringify({ duration: 7, steps: 7 }),
            },
          ],
        }),
      };
    if (said.includes('slowly echo'))
      return {
        chunks: openaiFrames({
          text: ['Let ', 'me ', 'echo ', 'that.'],
          toolCalls: [{ id: 'call_3', name: 'everything__echo', arguments: '{"message":"hi"}' }],
        }),
        delayMs: 400,
      };
    if (said.includes('echo')) {
      const message = 'x'.repeat(330);
      return {
        chunks: openaiFrames({
          toolCalls: [{ id: 'call_1', name: 'everything__echo', arguments: JSON.stringify({ message }) }],
        }),
      };
    }
    if (said.includes('long')) return { chunks: openaiFrames({ text: longReply }), delayMs: 120 };
    return { chunks: openaiFrames({ text: ['Hello! ', 'Nice to ', 'meet you.'] }), delayMs: 30 };
  });
}

/** A shell command line running the CLI from source, then printing its exit status. */
const cli = (args: string, env: Record<string, string>) =>
  `cd ${shellQuote(root)} && env -u OPENAI_API_KEY ${Object.entries(env)
    .map(([k, v]) => `${k}=${shellQuote(v)}`)
    .join(
      ' ',
    )} ${shellQuote(process.execPath)} --conditions=rxagent-source src/cli/main.ts ${args}; echo "EXITED $?"`;

describe('rxagent chat as a person would keep it open (tmux, 80 columns) and with a pipe', () => {
  let openai: TranscriptServer;
  let home: string;
  const panes: TmuxPane[] = [];

  beforeAll(async () => {
    openai = await fakeOpenAI();
    home = mkdtempSync(join(tmpdir(), 'rxagent-cli-'));
  });
  afterAll(async () => {
    for (const pane of panes) pane.kill();
    await openai.close();
    rmSync(home, { recursive: true, force: true });
  });

  const start = (args: string, env: Record<string, string> = { OPENAI_API_KEY: 'sk-test' }) => {
    const pane = startTmux(
      `rxagent-cli2-${process.pid}-${panes.length}`,
      cli(`chat --base-url ${openai.url}/v1 ${args}`, { RXAGENT_HOME: home, ...env }),
      { columns: 80, rows: 40 },
    );
    panes.push(pane);
    return pane;
  };
  const type = (pane: TmuxPane, text: string) => {
    pane.send(text, { literal: true });
    pane.send('Enter');
  };

  it('remembers the conversation without --session; a line typed during a reply is sent after it', async () => {
    const pane = start('');
    await pane.waitFor(/^>\s*$/m, 30_000);
    const before = openai.requests.length;
    type(pane, 'My name is Ann, say something long');
    await pane.waitFor(/word3 /);
    // Typed while the reply streams: not echoed into it, and sent once it ends.
    type(pane, 'What is my name?');
    const shown = await pane.waitFor(/word59 ?\n> What is my name\?\nHello! Nice to meet you\.\n>/, 30_000);
    expect(shown).not.toMatch(/word\d+ [^\n]*What is my name/);
    // The reply wraps between words, within 80 columns.
    const reply = shown.slice(shown.indexOf('word0'), shown.indexOf('word59') + 6).split('\n');
    expect(reply.length).toBeGreaterThan(4);
    for (const line of reply) expect(line.trim()).toMatch(/^(word\d+ )*word\d+$/);
    expect(reply.every((line) => line.length <= 80)).toBe(true);
    expect(openai.requests.length).toBe(before + 2);
    expect(messagesOf(openai, -1).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);
  }, 120_000);

  it('wraps at the width the terminal has now, after it was resized', async () => {
    const pane = start('');
    await pane.waitFor(/^>\s*$/m, 30_000);
    pane.resize(40, 40);
    await new Promise((resolve) => setTimeout(resolve, 300));
    type(pane, 'say something long');
    const shown = await pane.waitFor(/word59 ?\n>/, 30_000);
    const reply = shown.slice(shown.indexOf('word0'), shown.indexOf('word59') + 6).split('\n');
    // tmux breaks a line wider than the pane mid-word: each line holds whole words, and fits.
    for (const line of reply) expect(line.trim()).toMatch(/^(word\d+ )*word\d+$/);
    expect(reply.length).toBeGreaterThan(8);
    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);
  }, 60_000);

  it('wraps between words when only the output is a terminal (echo question | rxagent chat)', async () => {
    const pane = startTmux(
      `rxagent-cli2-${process.pid}-${panes.length}`,
      `echo 'say something long' | (${cli(`chat --base-url ${openai.url}/v1`, { RXAGENT_HOME: home, OPENAI_API_KEY: 'sk-test' })})`,
      { columns: 80, rows: 40 },
    );
    panes.push(pane);
    const shown = await pane.waitFor(/EXITED 0/, 30_000);
    const reply = shown.slice(shown.indexOf('word0'), shown.indexOf('word59') + 6).split('\n');
    expect(reply.length).toBeGreaterThan(4);
    for (const line of reply) expect(line.trim()).toMatch(/^(word\d+ )*word\d+$/);
    expect(shown).not.toContain('>');
  }, 60_000);

  it('at a terminal whose output is piped (rxagent chat | tee log), a line typed ahead does not answer a later approval', async () => {
    const config = join(home, 'mcp-piped.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
      }),
    );
    const pane = startTmux(
      `rxagent-cli2-${process.pid}-${panes.length}`,
      `(${cli(`chat --base-url ${openai.url}/v1 --mcp-config ${config}`, { RXAGENT_HOME: home, OPENAI_API_KEY: 'sk-test' })}) | cat`,
      { columns: 80, rows: 40 },
    );
    panes.push(pane);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // no prompt to wait for: output is a pipe
    type(pane, 'slowly echo hi');
    await pane.waitFor(/Let /, 30_000);
    type(pane, 'what about rust?');
    await pane.waitFor(/\? allow everything__echo\? \[y\/N\]/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pane.text()).not.toMatch(/↳ rejected/);
    type(pane, 'y');
    await pane.waitFor(/↳ ok: /);
    await expect
      .poll(() => messagesOf(openai, -1).at(-1)!.content, { timeout: 10_000 })
      .toBe('what about rust?');
    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);
  }, 90_000);

  it('sends a pasted block of lines as one message, when Enter is pressed', async () => {
    const pane = start('');
    await pane.waitFor(/^>\s*$/m, 30_000);
    const before = openai.requests.length;
    pane.paste('explain this:\n  at line two\n  at line three');
    await pane.waitFor(/at line three/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(openai.requests.length).toBe(before);
    pane.send(' please', { literal: true });
    pane.send('Enter');
    await pane.waitFor(/meet you\.\n>/);
    expect(openai.requests.length).toBe(before + 1);
    expect(messagesOf(openai, -1).at(-1)!.content).toBe(
      'explain this:\n  at line two\n  at line three please',
    );
    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);
  }, 60_000);

  it('Ctrl-C stops a reply and keeps the message; on a half-typed line it clears it; on an empty one it quits (130)', async () => {
    const pane = start('');
    await pane.waitFor(/^>\s*$/m, 30_000);
    type(pane, 'My name is Bo, say something long');
    await pane.waitFor(/word2 /);
    pane.send('C-c');
    await pane.waitFor(/\[stopped\]\n>/);
    type(pane, 'hi');
    await pane.waitFor(/meet you\.\n>/);
    const sent = messagesOf(openai, -1);
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent[0]!.content).toBe('My name is Bo, say something long');
    expect(String(sent[1]!.content)).toMatch(/^word0 word1 word2/);

    pane.send('a long question I was still typ', { literal: true });
    await pane.waitFor(/> a long question I was still typ/);
    pane.send('C-c');
    await pane.waitFor(/\n>\s*$/);
    expect(pane.text()).not.toContain('EXITED');
    type(pane, 'hello');
    await pane.waitFor(/> hello\nHello! Nice to meet you\.\n>/);
    expect(messagesOf(openai, -1).at(-1)!.content).toBe('hello');
    pane.send('C-c');
    await pane.waitFor(/EXITED 130/);
  }, 120_000);

  it('fits 80 columns: help and banner lines, a long tool argument shown once, cut short; progress during a long tool', async () => {
    const config = join(home, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
      }),
    );
    const help = start('--help');
    const text = await help.waitFor(/EXITED 0/);
    const lines = text
      .slice(0, text.indexOf('EXITED'))
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(8);
    // tmux wraps at 80: a line of the help that was longer would show as two, the second unindented.
    expect(lines.filter((line) => /^\S/.test(line)).map((line) => line.split(' ')[0])).toEqual([
      'Usage:',
      'Lines',
      'message,',
      'the',
      'Ctrl-D',
    ]);
    const pane = start(`--mcp-config ${config}`);
    const banner = await pane.waitFor(/^>\s*$/m, 30_000);
    expect(banner.split('\n').every((line) => line.length <= 80)).toBe(true);
    expect(banner).toMatch(
      /^rxagent chat: openai\/gpt-4o-mini, \d+ MCP tools\nCtrl-C stops a reply, Ctrl-D quits\.$/m,
    );
    type(pane, 'please echo');
    await pane.waitFor(/\? allow everything__echo\? \[y\/N\]/);
    const asked = pane.text();
    expect(asked.replace(/\n/g, '')).toContain(`everything__echo({"message":"${'x'.repeat(188)}…)`);
    // What was cut follows, before the question: each argument is shown whole, and once.
    expect(asked.replace(/\n/g, '')).toContain(`…${'x'.repeat(142)}"})`);
    expect(asked.replace(/\n/g, '').match(/x{2,}/g)!.join('')).toHaveLength(330);
    pane.send('n', { literal: true });
    pane.send('Enter');
    await pane.waitFor(/↳ rejected/);
    await pane.waitFor(/Echoed\.\n>/);

    // A tool that runs for 7 s: a line says it still runs, then its result comes.
    // A line typed before the question is asked is the next message, not the answer to it.
    type(pane, 'slowly echo hi');
    await pane.waitFor(/Let /);
    type(pane, 'what about rust?');
    await pane.waitFor(/\? allow everything__echo\? \[y\/N\]$/m);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pane.text()).not.toMatch(/↳ rejected[^\n]*\n[^]*↳ rejected/);
    type(pane, 'y');
    await pane.waitFor(/↳ ok: [^\n]*\n[^]*Echoed\.\n> what about rust\?\n/);
    // The line is shown as it is sent: its request reaches the server a moment later.
    await expect
      .poll(() => messagesOf(openai, -1).at(-1)!.content, { timeout: 5_000 })
      .toBe('what about rust?');

    // Ctrl-C at the question stops the reply; the half-typed answer goes with it.
    type(pane, 'please echo again');
    await pane.waitFor(/\? allow everything__echo\? \[y\/N\]$/m);
    pane.send('ye', { literal: true });
    await pane.waitFor(/\[y\/N\] ye$/m);
    pane.send('C-c');
    await pane.waitFor(/\[stopped\]\n>/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pane.text().trimEnd().split('\n').at(-1)).toBe('>');
    type(pane, 'hi');
    await pane.waitFor(/> hi\nHello! Nice to meet you\.\n>/);
    expect(messagesOf(openai, -1).at(-1)!.content).toBe('hi');

    // A block pasted at the question is the next message, not the answer: its first line 'y'
    // approves nothing, and the question waits for a typed answer.
    type(pane, 'please echo once more');
    await pane.waitFor(/\? allow everything__echo\? \[y\/N\]$/m);
    const decided = (pane.text().match(/↳ (ok|rejected)/g) ?? []).length;
    pane.paste('y\nthen summarise');
    pane.send('Enter');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((pane.text().match(/↳ (ok|rejected)/g) ?? []).length).toBe(decided);
    type(pane, 'n');
    await pane.waitFor(/↳ rejected[^]*Echoed\.\n/);
    await expect
      .poll(() => messagesOf(openai, -1).at(-1)!.content, { timeout: 10_000 })
      .toBe('y\nthen summarise');
    await pane.waitFor(/meet you\.\n>\s*$/);

    type(pane, 'a slow tool please');
    await pane.waitFor(/\? allow everything__trigger-long-running-operation\? \[y\/N\]/);
    type(pane, 'y');
    await pane.waitFor(/ {2}… everything__trigger-long-running-operation running \([4-6] s\)\n/, 15_000);
    await pane.waitFor(/↳ ok: [^\n]*/, 15_000);
    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);
  }, 120_000);

  it('reads piped input: each line a turn, every reply waited for, no ANSI codes, exit 0', async () => {
    const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const clean = { ...process.env };
      for (const name of Object.keys(clean)) if (/_API_KEY$/.test(name)) delete clean[name];
      const child = execFile(
        process.execPath,
        ['--conditions=rxagent-source', 'src/cli/main.ts', 'chat', '--demo'],
        { cwd: root, env: { ...clean, RXAGENT_HOME: home } },
        (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
      );
      child.stdin!.end('hi\nwhat did I say?\n');
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(String.fromCharCode(27));
    const replies = result.stdout.trim().split('\n');
    expect(replies).toHaveLength(2);
    expect(replies[0]).toMatch(/^This is rxagent running offline/);
    expect(replies[1]).toMatch(/\(You said: "what did I say\?"\.\)$/);
  }, 60_000);

  it("never passes a model's escape sequences or control characters on, to a pipe or a terminal", async () => {
    const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--conditions=rxagent-source', 'src/cli/main.ts', 'chat', '--base-url', `${openai.url}/v1`],
        { cwd: root, env: { ...process.env, OPENAI_API_KEY: 'sk-test', RXAGENT_HOME: home } },
        (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
      );
      child.stdin!.end('escape codes\nescape tool\n');
    });
    expect(result.code).toBe(0);
    // Only line feeds and tabs: no ESC, BEL, BS, CR, nor the one-byte CSI (U+009B).
    // eslint-disable-next-line no-control-regex -- looking for control characters
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain('Hi ]0;PWNED[31mred[0m baXX 2J\nOK\n');
    expect(result.stdout).toContain('⚙ x[2Jy({})');

    const pane = start('');
    await pane.waitFor(/^>\s*$/m, 30_000);
    type(pane, 'escape codes');
    await pane.waitFor(/\nOK\n>/);
    expect(
      execFileSync('tmux', ['-L', pane.name, 'display', '-p', '#{pane_title}'], { encoding: 'utf8' }),
    ).not.toContain('PWNED');
    type(pane, 'paste off');
    await pane.waitFor(/ done\.\n>/);
    const before = openai.requests.length;
    pane.paste('first line\nsecond line');
    await pane.waitFor(/second line/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(openai.requests.length).toBe(before);
    pane.send('Enter');
    await expect.poll(() => openai.requests.length, { timeout: 10_000 }).toBe(before + 1);
    expect(messagesOf(openai, -1).at(-1)!.content).toBe('first line\nsecond line');
    await pane.waitFor(/meet you\.\n>/);
    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);
  }, 60_000);

  it('ends quietly when the reader of its output goes away (rxagent chat | head), stopping the reply', async () => {
    const aborted = openai.nextClientAbort();
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--conditions=rxagent-source', 'src/cli/main.ts', 'chat', '--base-url', `${openai.url}/v1`],
        { cwd: root, env: { ...process.env, OPENAI_API_KEY: 'sk-test', RXAGENT_HOME: home } },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // The reader takes the first words of the reply, and leaves.
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin.end('say something long\nand more\n');
    });
    expect(result).toEqual({ code: 0, stderr: '' });
    await aborted;
  }, 60_000);

  it('--base-url to a keyless server needs no key and sends none', async () => {
    const pane = start('', {});
    await pane.waitFor(/^>\s*$/m, 30_000);
    expect(pane.text()).toMatch(/rxagent chat: openai-compatible\/gpt-4o-mini/);
    type(pane, 'hi');
    await pane.waitFor(/meet you\.\n>/);
    expect(openai.requests.at(-1)!.headers.authorization).toBeUndefined();
    pane.send('C-d');
    await pane.waitFor(/EXITED 0/);
  }, 60_000);
});
