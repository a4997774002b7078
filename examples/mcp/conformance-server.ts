/**
 * The server the official MCP conformance suite tests, built with `serveMcp` only: the plain tools
 * live in a `ToolRegistry` (validated, audited), the fixtures that need the SDK's request context
 * (content blocks, sampling, elicitation, multi-round-trip input) are added with `configure`.
 *
 *   npx node --conditions=rxagent-source examples/mcp/conformance-server.ts [port]
 */
import { interval, map, take } from 'rxjs';
import { z } from 'zod';
import { defineTool, ToolRegistry } from 'rxagent';
import { type McpServerHandle, serveMcp } from 'rxagent/mcp';
import { addContentTools, addInteractiveTools, addSchemaTools } from './conformance/content-tools.ts';
import { addInputRequiredTools, requestStateCodec } from './conformance/input-required-tools.ts';
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
    addContentTools(server);
    addInteractiveTools(server);
    addSchemaTools(server);
    addInputRequiredTools(server);
    addResources(server);
    addPrompts(server);
    addLoggingAndCompletion(server);
    server.registerTool('test_trigger_tool_change', { description: 'Publishes tools/list_changed' }, () => {
      handle.notify.toolsChanged();
      return { content: [{ type: 'text', text: 'tools_list_changed published' }] };
    });
    server.registerTool(
      'test_trigger_prompt_change',
      { description: 'Publishes prompts/list_changed' },
      () => {
        handle.notify.promptsChanged();
        return { content: [{ type: 'text', text: 'prompts_list_changed published' }] };
      },
    );
  },
  onError: (error) => console.error('mcp:', error.message),
});
console.log(`listening on ${handle.url}`);
const stop = () => void handle.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
