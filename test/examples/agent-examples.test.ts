import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs an example as its header says, offline (no provider credentials). */
function runExample(file: string) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('OPENAI_')) delete env[name];
  const child = spawn(process.execPath, ['--conditions=rxagent-source', file], { cwd: root, env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (part: string) => (stdout += part));
  child.stderr.setEncoding('utf8').on('data', (part: string) => (stderr += part));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('agent examples', () => {
  it('examples/agent-controls.ts: structured output, a graceful budget, for await, a summarised session', async () => {
    const { code, stdout, stderr } = await runExample('examples/agent-controls.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      'object: Oslo 18 °C\nstopped: max-steps after 2 steps\nstreamed: Hello there.\n' +
        'session: 66 messages kept, 6 summaries written\n',
    );
  });

  it('examples/agent.ts: a tool call, a streamed answer, a session continued', async () => {
    const { code, stdout, stderr } = await runExample('examples/agent.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      '[get_weather → ok]\nIt is 18 °C in Oslo.\nThat is 64 °F.\nsession demo: 6 messages, version 2\n',
    );
  });

  it('examples/agent-approvals.ts: one approved, one declined, the model told', async () => {
    const { code, stdout, stderr } = await runExample('examples/agent-approvals.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('approve transfer of 40 to Ada? yes\napprove transfer of 5000 to Mallory? no\n');
    expect(stdout).toContain('call_1: ran → {"sent":40,"to":"Ada"}');
    expect(stdout).toMatch(/call_2: not run → \{"error":"rejected"/);
    expect(stdout).toContain('Sent 40 to Ada; the 5000 to Mallory was declined.');
  });

  it('examples/agent-cancel.ts: Ctrl-C cancels the tool and leaves the session untouched', async () => {
    const { code, stdout, stderr } = await runExample('examples/agent-cancel.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      'searching for "rxjs"…\nsearch cancelled by its signal\nrun ended: cancelled by Ctrl-C\n' +
        'session demo after the cancelled run: null\n',
    );
  });
});
