/**
 * The server the official MCP conformance suite tests, built with `serveMcp` only. Every tool
 * fixture a registry tool can express lives in a `ToolRegistry` (text, errors, progress, images,
 * audio, embedded resources, list-change triggers), so the score measures rxagent's bridge. Added
 * with `configure` on the SDK's own API are only what `serveMcp` does not serve itself: resources,
 * prompts, completion and logging, and tools that need the SDK's request context (log
 * notifications, sampling, elicitation, closing an SSE stream, multi-round-trip input) or a schema
 * the registry's strict validator refuses (`x-mcp-header`, `required` inside `anyOf`).
 *
 *   npx node --conditions=rxagent-source examples/mcp/conformance-server.ts [port]
 */
import { interval, map, take } from 'rxjs';
import { z } from 'zod';
import { defineTool, ToolRegistry } from 'rxagent';
import { type McpServerHandle, serveMcp } from 'rxagent/mcp';
import { addInteractiveTools, addSchemaTools } from './conformance/content-tools.ts';
import { addInputRequiredTools, requestStateCodec } from './conformance/input-required-tools.ts';
import { addRegistryFixtures } from './conformance/registry-fixtures.ts';
import { addLoggingAndCompletion, addPrompts, addResources } from './conformance/resources-prompts.ts';

const registry = new ToolRegistry();
registry.register(
  defineTool({
    name: 'test_simple_text',
    description: 'Tests simple text content response',
    input: z.object({}),
    execute: () => 'This is a simple text response for testing.',
  }),
);
registry.register(
  defineTool({
    name: 'test_error_handling',
    description: 'Tests error response handling',
    input: z.object({}),
    execute: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  }),
);
registry.register(
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Tests tool that reports progress notifications',
    input: z.object({}),
    execute: () =>
      interval(50).pipe(
        take(4),
        map((i) =>
          i < 3 ? { progress: i * 50, total: 100, message: `Completed step ${i * 50} of 100` } : 'done',
        ),
      ),
  }),
);

addRegistryFixtures(registry, () => handle.notify);

const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
// `configure` runs per request, after `handle` is set.
const handle: McpServerHandle = await serveMcp(registry, {
  name: 'rxagent-conformance-server',
  version: '1.0.0',
  http: { host: '127.0.0.1', port },
  serverOptions: {
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
    },
    requestState: { verify: requestStateCodec.verify },
  },
  configure: (server) => {
    addInteractiveTools(server);
    addSchemaTools(server);
    addInputRequiredTools(server);
    addResources(server);
    addPrompts(server);
    addLoggingAndCompletion(server);
  },
  onError: (error) => console.error('mcp:', error.message),
});
console.log(`listening on ${handle.url}`);
const stop = () => void handle.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
