import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the JavaScript build (scripts/bundle-dist.ts), in a checkout whose path has a space', () => {
  let dir = '';
  let output = { status: -1 as number | null, stderr: '' };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rx agent é '));
    for (const entry of ['src', 'scripts', 'package.json', 'tsconfig.json'])
      await cp(join(root, entry), join(dir, entry), { recursive: true });
    await symlink(join(root, 'node_modules'), join(dir, 'node_modules'));
    const child = spawnSync(process.execPath, ['scripts/bundle-dist.ts'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    output = { status: child.status, stderr: child.stderr };
  }, 90_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const load = (file: string) =>
    import(pathToFileURL(join(dir, 'dist', file)).href) as Promise<Record<string, unknown>>;

  it('writes every entry package.json names', () => {
    expect(output.stderr).toBe('');
    expect(output.status).toBe(0);
  });

  it('keeps one copy of each module: an error class is the same from every entry', async () => {
    const core = await load('index.js');
    const http = await load('http/index.js');
    const openai = await load('providers/openai/index.js');
    expect(typeof openai.openai).toBe('function');
    // `fromSSE` (rxagent/http) throws the core's errors: the class its error is must be rxagent's.
    const { RedirectRefusedError } = core as { RedirectRefusedError: new (...args: never[]) => Error };
    const fromSSE = http.fromSSE as (url: string, options: object) => { subscribe: (o: object) => void };
    const error = await new Promise<unknown>((resolve) => {
      const redirect = Response.redirect('http://127.0.0.1:9/elsewhere', 307);
      fromSSE('http://127.0.0.1:9/runs/1', {
        fetch: () => Promise.resolve(redirect),
        maxReconnects: 0,
      }).subscribe({ error: resolve });
    });
    expect(error).toBeInstanceOf(RedirectRefusedError);
  });
});
