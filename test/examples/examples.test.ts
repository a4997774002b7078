import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs an example as `npm run demo` does, without any provider credentials. */
function runExample(file: string, onStdout?: (text: string, child: ReturnType<typeof spawn>) => void) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('OPENAI_')) delete env[name];
  const child = spawn(process.execPath, ['--conditions=rxagent-source', file], { cwd: root, env });
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
    const [first, ...rest] = stdout.split('\n');
    expect(first).toMatch(/^rxagent quickstart: no OPENAI_API_KEY .* replaying a bundled recording/);
    expect(rest.join('\n')).toMatch(/\[stop\] \d+ in \/ \d+ out tokens/);
  });

  it('cancels cleanly on Ctrl-C (SIGINT) mid-stream', async () => {
    let signalled = false;
    const { code, stdout } = await runExample('examples/quickstart.ts', (text, child) => {
      // first token arrived: interrupt
      if (!signalled && text.split('\n')[1]?.length) {
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
    expect(stdout).toContain('audit log: 3 entries, chain intact');
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
