// Fixed work for instruction counts: one client (connectMcp or the SDK Client) makes WARMUP then
// CALLS sequential tools/call round trips over stdio to examples/mcp/serve-registry.ts, and exits.
// Two callgrind runs (CALLS=0 and CALLS=n) give the client's instructions per call, whatever the
// machine's load (the server is another process, not traced). With the project's Node 24 under
// valgrind (JIT code needs --smc-check), WARMUP=1000 and two lengths, so JIT compiling is out of it:
//   NODE24=node_modules/node/bin/node; CG='valgrind --tool=callgrind --smc-check=all-non-file'
//   WARMUP=1000 $CG --callgrind-out-file=/tmp/c0 $NODE24 --conditions=rxagent-source bench/mcp-stdio-calls.ts rx 500
//   WARMUP=1000 $CG --callgrind-out-file=/tmp/c1 $NODE24 --conditions=rxagent-source bench/mcp-stdio-calls.ts rx 1500
//   (Ir of c1 − Ir of c0) / 1000; the same with `sdk`. Plain wall time: npx node --conditions=rxagent-source bench/mcp-stdio-calls.ts rx
// Env: MCP_ERA=legacy|auto (the SDK client's negotiation; connectMcp's stdio default is legacy).
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { lastValueFrom } from 'rxjs';
import { connectMcp } from '../src/mcp/index.ts';

const [which = 'rx', count = '1000'] = process.argv.slice(2);
const calls = Number(count);
const warmup = Number(process.env.WARMUP ?? 300);
const example = fileURLToPath(new URL('../examples/mcp/serve-registry.ts', import.meta.url));
const serverArgs = ['--conditions=rxagent-source', example];
const args = { a: 2, b: 3 };

let call: () => Promise<unknown>;
let close: () => Promise<void>;
if (which === 'rx') {
  const client = await connectMcp({ name: 'bench', command: process.execPath, args: serverArgs });
  call = () => lastValueFrom(client.callTool('add', args));
  close = () => client.close();
} else {
  const mode = process.env.MCP_ERA === 'auto' ? 'auto' : 'legacy';
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: serverArgs }));
  call = () => client.callTool({ name: 'add', arguments: args });
  close = () => client.close();
}
for (let i = 0; i < warmup; i++) await call();
const start = performance.now();
for (let i = 0; i < calls; i++) await call();
const ms = performance.now() - start;
await close();
console.log(`${which}: ${calls} calls in ${ms.toFixed(0)} ms`);
