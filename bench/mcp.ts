// MCP tool-call round trips per second, over stdio and Streamable HTTP: connectMcp (rxagent's
// Observable layer) against the SDK v2 Client called directly, on the same server process
// (examples/mcp/serve-registry.ts: a ToolRegistry served with serveMcp). Calls are sequential;
// rounds alternate between the two clients and the median is reported. Target: rxagent ≥ 0.9× SDK.
// Run: npx node --conditions=rxagent-source bench/mcp.ts   (env: BENCH_MCP_CALLS, BENCH_MCP_ROUNDS)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { lastValueFrom } from 'rxjs';
import { connectMcp } from '../src/mcp/index.ts';

const calls = Number(process.env.BENCH_MCP_CALLS ?? 1_000);
const rounds = Number(process.env.BENCH_MCP_ROUNDS ?? 5);
const example = fileURLToPath(new URL('../examples/mcp/serve-registry.ts', import.meta.url));
const serverArgs = ['--conditions=rxagent-source', example];

type Call = () => Promise<unknown>;
interface Subject {
  call: Call;
  close(): Promise<void>;
}

async function rate(call: Call): Promise<number> {
  for (let i = 0; i < 50; i++) await call();
  const start = performance.now();
  for (let i = 0; i < calls; i++) await call();
  return calls / ((performance.now() - start) / 1000);
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function compare(label: string, openRx: () => Promise<Subject>, openSdk: () => Promise<Subject>) {
  const subjects = { rx: await openRx(), sdk: await openSdk() };
  const rates = { rx: [] as number[], sdk: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? (['rx', 'sdk'] as const) : (['sdk', 'rx'] as const)) {
      rates[name].push(await rate(subjects[name].call));
    }
  }
  await Promise.all([subjects.rx.close(), subjects.sdk.close()]);
  const rx = median(rates.rx);
  const sdkRate = median(rates.sdk);
  const ratio = rx / sdkRate;
  console.log(
    `${label.padEnd(6)} connectMcp ${rx.toFixed(0).padStart(6)} calls/s · SDK Client ${sdkRate.toFixed(0).padStart(6)} calls/s · ` +
      `${ratio.toFixed(2)}× ${ratio >= 0.9 ? 'ok (target ≥ 0.9×)' : 'BELOW target 0.9×'}`,
  );
}

const args = { a: 2, b: 3 };
const rxSubject = async (options: Parameters<typeof connectMcp>[0]): Promise<Subject> => {
  const client = await connectMcp(options);
  return { call: () => lastValueFrom(client.callTool('add', args)), close: () => client.close() };
};
const sdkSubject = async (transport: () => Transport): Promise<Subject> => {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport());
  return { call: () => client.callTool({ name: 'add', arguments: args }), close: () => client.close() };
};

console.log(
  `MCP round trips: ${calls} sequential calls × ${rounds} rounds per client, median; tool 'add' through a ToolRegistry`,
);
await compare(
  'stdio',
  () => rxSubject({ name: 'bench', command: process.execPath, args: serverArgs }),
  () => sdkSubject(() => new StdioClientTransport({ command: process.execPath, args: serverArgs })),
);

const http = spawn(process.execPath, [...serverArgs, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const url = await new Promise<string>((resolve) => {
    http.stdout.setEncoding('utf8').on('data', (text: string) => {
      const match = /listening on (\S+)/.exec(text);
      if (match?.[1]) resolve(match[1]);
    });
  });
  await compare(
    'http',
    () => rxSubject({ name: 'bench', url }),
    () => sdkSubject(() => new StreamableHTTPClientTransport(new URL(url))),
  );
} finally {
  http.kill('SIGTERM');
}
