import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `npm run web`'s script with `PORT`; resolves with its exit code and stderr. */
function runWebChat(port: string): Promise<{ code: number; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: port };
  delete env.OPENAI_API_KEY;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=rxagent-source', 'examples/web-chat/server.ts'],
      { cwd: root, env, timeout: 30_000 },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

describe('the web chat started carelessly', () => {
  it('says in one line that its port is taken, and exits 1', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const { code, stderr } = await runWebChat(String(port));
      expect(code).toBe(1);
      expect(stderr).toBe(`web chat: port ${port} on 127.0.0.1 is in use; set PORT to another\n`);
    } finally {
      busy.close();
    }
  }, 60_000);

  it('refuses a PORT that is not a port, in one line, and exits 1', async () => {
    const { code, stderr } = await runWebChat('abc');
    expect(code).toBe(1);
    expect(stderr).toBe('web chat: PORT must be a number from 0 to 65535, not "abc"\n');
  }, 60_000);
});
