import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromSSE } from '../../src/http/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('examples/stream-to-browser.ts (the README server)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(process.execPath, ['--conditions=rxagent-source', 'examples/stream-to-browser.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0' },
    });
    url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout!.setEncoding('utf8').on('data', (part: string) => {
        stdout += part;
        const found = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0];
        if (found) resolve(found);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
  }, 60_000);
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('streams a run to fromSSE, resumes it at Content-Location, and stops it by POST', async () => {
    const response = await fetch(`${url}/chat`, { method: 'POST', body: JSON.stringify({ message: 'Hi' }) });
    const runPath = response.headers.get('content-location')!;
    expect(runPath).toMatch(/^\/runs\/[\w-]+$/);
    const events = await lastValueFrom(fromSSE(response).pipe(toArray()));
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(text).toBe('Hello from a resumable stream.');
    // The finished run is still there: a late client gets it all again from the start.
    const replay = await lastValueFrom(fromSSE(`${url}${runPath}`).pipe(toArray()));
    expect(replay).toEqual(events);

    const second = await fetch(`${url}/chat`, { method: 'POST', body: JSON.stringify({ message: 'Hi' }) });
    const secondPath = second.headers.get('content-location')!;
    await second.body!.cancel();
    const stopped = await fetch(`${url}${secondPath}/stop`, { method: 'POST' });
    expect(await stopped.json()).toEqual({ stopped: true });
  });

  it('answers a bad request with 400 and an unknown run with 404, and goes on serving', async () => {
    const bad = await fetch(`${url}/chat`, { method: 'POST', body: '{not json' });
    expect(bad.status).toBe(400);
    const unknown = await fetch(`${url}/runs/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { name: 'RunNotFoundError', runId: 'nope' } });
    const response = await fetch(`${url}/chat`, { method: 'POST', body: JSON.stringify({ message: 'Hi' }) });
    const events = await lastValueFrom(fromSSE(response).pipe(toArray()));
    expect(events.at(-1)?.type).toBe('agent-completed');
  });
});
