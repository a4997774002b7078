/**
 * Conformance fixtures served the rxagent way: `defineTool` tools in a `ToolRegistry`, so the suite
 * measures rxagent's bridge (validation, media content, list-change notifications), not the SDK's
 * own `registerTool`. Media reach the client as MCP image, audio and resource blocks through
 * `toModelContent`.
 */
import { z } from 'zod';
import { defineTool, type ToolRegistry } from 'rxagent';
import type { McpListNotifier } from 'rxagent/mcp';
import { PNG_1X1, WAV_TINY } from './media.ts';

const noInput = z.object({});
const asBase64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Registers the fixtures; `notify` is the served endpoint's notifier (known once it is serving). */
export function addRegistryFixtures(registry: ToolRegistry, notify: () => McpListNotifier): void {
  registry.register(
    defineTool({
      name: 'test_image_content',
      description: 'Returns an image',
      input: noInput,
      execute: () => PNG_1X1,
      toModelContent: (png) => [{ type: 'image', data: png, mediaType: 'image/png' }],
    }),
  );
  registry.register(
    defineTool({
      name: 'test_audio_content',
      description: 'Returns audio',
      input: noInput,
      execute: () => WAV_TINY,
      toModelContent: (wav) => [{ type: 'file', data: wav, mediaType: 'audio/wav' }],
    }),
  );
  registry.register(
    defineTool({
      name: 'test_embedded_resource',
      description: 'Returns an embedded resource',
      input: noInput,
      execute: () => 'This is an embedded resource content.',
      toModelContent: (text) => [
        { type: 'file', data: asBase64(text), mediaType: 'text/plain', filename: 'embedded-resource' },
      ],
    }),
  );
  registry.register(
    defineTool({
      name: 'test_multiple_content_types',
      description: 'Returns text, image and a resource',
      input: noInput,
      execute: () => ({ test: 'data', value: 123 }),
      toModelContent: (data) => [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_1X1, mediaType: 'image/png' },
        {
          type: 'file',
          data: asBase64(JSON.stringify(data)),
          mediaType: 'application/json',
          filename: 'mixed-content-resource',
        },
      ],
    }),
  );
  registry.register(
    defineTool({
      name: 'test_trigger_tool_change',
      description: 'Publishes tools/list_changed',
      input: noInput,
      execute: () => {
        notify().toolsChanged();
        return 'tools_list_changed published';
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'test_trigger_prompt_change',
      description: 'Publishes prompts/list_changed',
      input: noInput,
      execute: () => {
        notify().promptsChanged();
        return 'prompts_list_changed published';
      },
    }),
  );
}
