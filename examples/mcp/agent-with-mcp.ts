/**
 * An agent using an MCP server's tools: the official filesystem server (installed from npm, run with
 * this Node) joins through an `McpHub` built from the common `{"mcpServers": {...}}` shape. A
 * scripted model (offline) reads a file through `fs__read_text_file` and answers from it.
 *
 *   node --conditions=rxagent-source examples/mcp/agent-with-mcp.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, tap } from 'rxjs';
import { Agent, contentSummary } from 'rxagent';
import { McpHub } from 'rxagent/mcp';
import { scriptedModel } from 'rxagent/testing';

const dir = await mkdtemp(join(tmpdir(), 'rxagent-mcp-'));
await writeFile(join(dir, 'todo.txt'), 'buy milk\n');
const server = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

const hub = await McpHub.fromConfig({
  mcpServers: { fs: { command: process.execPath, args: [server, dir] } },
});
try {
  const model = scriptedModel([
    { toolCalls: [{ name: 'fs__read_text_file', arguments: { path: join(dir, 'todo.txt') } }] },
    { text: 'Your list says: buy milk.' },
  ]);
  const agent = new Agent({ model }).use(hub);
  const events = agent.run('What is on my todo list?').pipe(
    tap((event) => {
      if (event.type === 'tool-result')
        console.log(`${event.toolCall.name} → ${contentSummary(event.outcome.content).trim()}`);
      if (event.type === 'agent-completed') console.log(event.result.text);
    }),
  );
  await lastValueFrom(events);
} finally {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
}
