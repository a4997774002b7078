import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

it('examples/sessions.ts resolves a conflict by re-reading and keeps every message once', async () => {
  const { stdout, stderr } = await run(
    process.execPath,
    ['--conditions=rxagent-source', 'examples/sessions.ts'],
    {
      cwd: root,
    },
  );
  expect(stderr).toBe('');
  expect(stdout.split('\n')).toEqual([
    'conflict: expected version 1, the session is at 2',
    'version 3, title Intro',
    'user: Hi! I am Ada.',
    'assistant: Hello Ada.',
    'user: What is my name?',
    'assistant: Ada.',
    'user: And my title?',
    '',
  ]);
});
