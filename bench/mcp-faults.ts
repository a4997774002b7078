// The MCP fault run: 1,000 tool calls through connectMcp, 100 at a time, spread over four stdio
// servers that crash (5% of calls), hang (10%), write garbage before every answer, or answer slowly
// (bench/mcp-fault-server.mjs). Each call has a 2 s no-progress timeout and the crashing server a
// restart policy. Reported: calls settled ok / as a typed McpError / any other error, hangs (a call
// not settled 30 s after it started), and server processes left after close().
// Run: npx node --conditions=rxagent-source bench/mcp-faults.ts   (env: BENCH_FAULT_CALLS)
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { from, lastValueFrom, mergeMap, toArray } from 'rxjs';
import { McpError } from '../src/core/index.ts';
import { connectMcp, type McpClient } from '../src/mcp/index.ts';

const calls = Number(process.env.BENCH_FAULT_CALLS ?? 1_000);
const server = fileURLToPath(new URL('./mcp-fault-server.mjs', import.meta.url));
const personalities = ['crash', 'hang', 'garbage', 'slow'] as const;
const tag = `rxagent-fault-${randomUUID()}`;
const HANG_MS = 30_000;

type Settled = 'ok' | 'typed' | 'untyped' | 'hang';

function running(): number {
  const out = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(tag) && !line.trim().startsWith('Z')).length;
}

async function call(client: McpClient, n: number): Promise<Settled> {
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<Settled>((resolve) => (timer = setTimeout(() => resolve('hang'), HANG_MS)));
  const settled = lastValueFrom(client.callTool('work', { n })).then(
    (): Settled => 'ok',
    (error: unknown): Settled => (McpError.is(error) ? 'typed' : 'untyped'),
  );
  const result = await Promise.race([settled, watchdog]);
  clearTimeout(timer);
  return result;
}

const started = performance.now();
const clients = await Promise.all(
  personalities.map((personality) =>
    connectMcp({
      name: personality,
      command: process.execPath,
      args: [server, personality, tag],
      timeoutMs: 2_000,
      restart: { maxRestarts: 1_000, initialDelayMs: 20, maxDelayMs: 200 },
    }),
  ),
);
const results = await lastValueFrom(
  from(Array.from({ length: calls }, (_, i) => i)).pipe(
    mergeMap((i) => from(call(clients[i % clients.length] as McpClient, i)), 100),
    toArray(),
  ),
);
const elapsed = performance.now() - started;
const during = running();
await Promise.all(clients.map((client) => client.close()));
await new Promise((resolve) => setTimeout(resolve, 500));
const leaked = running();
const count = (kind: Settled) => results.filter((result) => result === kind).length;
console.log(
  `MCP fault run: ${calls} calls, 100 concurrent, over servers that crash, hang, write garbage, answer slowly (${(elapsed / 1000).toFixed(1)} s)\n` +
    `  ok ${count('ok')} · typed McpError ${count('typed')} · untyped errors ${count('untyped')} · hangs ${count('hang')}\n` +
    `  server processes: ${during} while running, ${leaked} left after close()`,
);
process.exitCode = count('untyped') + count('hang') + leaked === 0 ? 0 : 1;
