/**
 * `npm run test:conformance`: the official MCP conformance suite (the pinned devDependency, run
 * from node_modules, no network) against `conformance-server.ts` and `conformance-client.ts`, for
 * both protocol revisions. Every scored scenario must pass; exits non-zero otherwise.
 *
 *   npx node --conditions=rxagent-source examples/mcp/conformance/run.ts
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = `${root}node_modules/.bin/conformance`;
const node = [process.execPath, '--conditions=rxagent-source'];
const revisions = ['2026-07-28', '2025-11-25'];

/** Runs one suite; resolves with its exit code and the summary lines. */
async function suite(args: string[]): Promise<{ label: string; code: number | null; summary: string[] }> {
  const child = spawn(bin, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const [code] = (await once(child, 'close')) as [number | null];
  const summary = output.split('\n').filter((line) => /^(Total:|✗|Not scored)/.test(line));
  return { label: args.slice(0, 1).concat(args.slice(-1)).join(' '), code, summary };
}

const server = spawn(
  node[0] as string,
  [...node.slice(1), `${root}examples/mcp/conformance-server.ts`, '0'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
try {
  const url = await new Promise<string>((resolve, reject) => {
    server.stdout.setEncoding('utf8').on('data', (text: string) => {
      const match = /listening on http:\/\/[^:]+:(\d+)(\/\S*)/.exec(text);
      if (match) resolve(`http://localhost:${match[1]}${match[2]}`);
    });
    server.once('exit', () => reject(new Error('the conformance server exited')));
  });
  const clientCommand = `${node.join(' ')} ${root}examples/mcp/conformance-client.ts`;
  // One suite at a time: the client suites' mock servers and the server suites share the machine.
  const results = [];
  for (const revision of revisions)
    results.push(await suite(['server', '--url', url, '--requirements', revision]));
  for (const revision of revisions) {
    results.push(await suite(['client', '--command', clientCommand, '--requirements', revision]));
  }
  let failed = false;
  for (const { code, label, summary } of results) {
    // The suite exits 0 when every scored scenario passes; its ✗ lines are then unscored ones only.
    const total = summary.find((line) => line.startsWith('Total:')) ?? '';
    const failing = summary
      .filter((line) => line.startsWith('✗'))
      .map((line) =>
        line
          .replace(/^✗\s*/, '')
          .replace(
            /: (\d+) passed, (\d+) failed$/,
            (_all, ok: string, bad: string) => ` ${ok}/${Number(ok) + Number(bad)}`,
          ),
      );
    const verdict = code === 0 ? 'pass: every scored scenario passes' : 'FAIL: a scored scenario fails';
    console.log(`${verdict}  (${label}; checks ${total.replace(/^Total:\s*/, '')})`);
    if (failing.length > 0) {
      const what = code === 0 ? 'unscored and failing (not implemented; no effect on the result)' : 'failing';
      console.log(`      ${what}: ${failing.join(', ')}`);
    }
    failed ||= code !== 0;
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  server.kill('SIGTERM');
}
