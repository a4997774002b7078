import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs an example as `npm run demo` does, without any provider credentials. */
function runExample(
  file: string,
  onStdout?: (text: string, child: ReturnType<typeof spawn>) => void,
  { args = [], env: extra = {} }: { args?: string[]; env?: Record<string, string> } = {},
) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('OPENAI_')) delete env[name];
  Object.assign(env, extra);
  const child = spawn(process.execPath, ['--conditions=rxagent-source', file, ...args], { cwd: root, env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (part: string) => {
    stdout += part;
    onStdout?.(stdout, child);
  });
  child.stderr.setEncoding('utf8').on('data', (part: string) => {
    stderr += part;
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('examples/quickstart.ts', () => {
  it('replays the bundled recording token by token and says so first', async () => {
    const { code, stdout, stderr } = await runExample('examples/quickstart.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [first, second, ...rest] = stdout.split('\n');
    expect(first).toMatch(/^rxagent quickstart: no OPENAI_API_KEY .* replaying a bundled recording/);
    expect(second).toBe(
      'The recording answers a fixed question: "In three short sentences: why stream LLM replies?"',
    );
    expect(rest.join('\n')).toMatch(/\[stop\] \d+ in \/ \d+ out tokens/);
  });

  it('says a prompt argument is used only live when it replays', async () => {
    const { code, stdout } = await runExample('examples/quickstart.ts', undefined, {
      args: ['Why', 'RxJS?'],
    });
    expect(code).toBe(0);
    expect(stdout.split('\n')[1]).toMatch(/fixed question: .*\(your prompt is used only live/);
  });

  it('sends its prompt argument (all words) to the live server at OPENAI_BASE_URL, with OPENAI_MODEL', async () => {
    const bodies: unknown[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (part: string) => (body += part));
      req.on('end', () => {
        bodies.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = {
          id: 'c1',
          model: 'llama3.2',
          choices: [{ index: 0, delta: { content: 'Hi.' }, finish_reason: 'stop' }],
        };
        res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { code, stdout, stderr } = await runExample('examples/quickstart.ts', undefined, {
        args: ['Why', 'RxJS?'],
        env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MODEL: 'llama3.2' },
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^rxagent quickstart: live, openai-compatible\/llama3\.2/);
      expect(stdout).toContain('[stop] no usage reported');
      expect(bodies).toMatchObject([
        { model: 'llama3.2', messages: [{ role: 'user', content: 'Why RxJS?' }] },
      ]);
    } finally {
      server.close();
    }
  });

  it('cancels cleanly on Ctrl-C (SIGINT) mid-stream', async () => {
    let signalled = false;
    const { code, stdout } = await runExample('examples/quickstart.ts', (text, child) => {
      // first token arrived: interrupt
      if (!signalled && text.split('\n')[2]?.length) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    expect(signalled).toBe(true);
    expect(stdout).toContain('[cancelled]');
    expect(stdout).not.toMatch(/\[stop\]/);
    expect(code).toBe(130);
  });
});

describe('examples/tools.ts', () => {
  it('corrects an invalid call from the outcome, refuses a guest, and verifies the audit chain', async () => {
    const { code, stdout, stderr } = await runExample('examples/tools.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('step 1: get_weather → invalid_arguments');
    expect(stdout).toContain('"path":"/city","message":"must be string"');
    expect(stdout).toContain('step 2: get_weather → ok: {"city":"Oslo","tempC":18,"sky":"clear"}');
    expect(stdout).toContain('step 3: It is 18 °C and clear in Oslo.');
    expect(stdout).toContain('guest → permission_denied');
    // Three outcome records, and a started record for the one call that reached execute.
    expect(stdout).toContain('audit log: 4 entries, chain intact');
  });
});

describe('examples/fallback.ts', () => {
  it('falls back from an unreachable server to the recording and says who answered', async () => {
    const { code, stdout, stderr } = await runExample('examples/fallback.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('local-llm/llama3.2 unreachable, falling back');
    expect(stdout).toMatch(/answered by openai\/gpt-4o-mini-2024-07-18: Streaming shows/);
  });
});

describe('examples/testing.ts', () => {
  it('tests code against a scripted model and asserts on the request it sent', async () => {
    const { code, stdout, stderr } = await runExample('examples/testing.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe('ok: "Streams beat waiting" from 1 scripted turn\n');
  });
});
