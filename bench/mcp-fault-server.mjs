// A stdio MCP server (protocol 2025-06-18, no SDK) that misbehaves by personality, for the fault
// run (bench/mcp-faults.ts). Tool `work` answers `done <n>`, except:
//   crash    exits while handling 5% of calls
//   hang     never answers 10% of calls
//   garbage  writes lines that are not JSON-RPC (and half a JSON object) before every answer
//   slow     answers after 20 to 300 ms
import { createInterface } from 'node:readline';
import { setTimeout } from 'node:timers';

const personality = process.argv[2] ?? 'slow';
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

function answer(request) {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: `fault-${personality}`, version: '1.0.0' },
      };
    case 'tools/list':
      return {
        tools: [
          {
            name: 'work',
            description: 'Does some work',
            inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
          },
        ],
      };
    case 'tools/call':
      return { content: [{ type: 'text', text: `done ${request.params?.arguments?.n}` }] };
    case 'ping':
      return {};
    default:
      return undefined;
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  if (request.id === undefined || request.method === undefined) return;
  const result = answer(request);
  const reply = () =>
    result === undefined
      ? send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } })
      : send({ jsonrpc: '2.0', id: request.id, result });
  if (request.method !== 'tools/call') return reply();
  if (personality === 'crash' && Math.random() < 0.05) process.exit(1);
  if (personality === 'hang' && Math.random() < 0.1) return;
  if (personality === 'garbage')
    process.stdout.write('this is not JSON-RPC\n{"jsonrpc":"2.0","id":\n[1,2,3]\n');
  if (personality === 'slow') return void setTimeout(reply, 20 + Math.random() * 280);
  reply();
});
