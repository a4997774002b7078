/** Conformance fixtures for resources, prompts, logging and completion. */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PNG_1X1 } from './media.ts';

/** Static and templated resources, with subscribe/unsubscribe. */
export function addResources(server: McpServer): void {
  const textResource = (name: string, uri: string, body: string) =>
    server.registerResource(
      name,
      uri,
      { title: name, description: `${name} for testing`, mimeType: 'text/plain' },
      () => ({
        contents: [{ uri, mimeType: 'text/plain', text: body }],
      }),
    );
  textResource('static-text', 'test://static-text', 'This is the content of the static text resource.');
  textResource('watched-resource', 'test://watched-resource', 'Watched resource content');
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A PNG', mimeType: 'image/png' },
    () => ({
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_1X1 }],
    }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'A template with parameter substitution', mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.toString(),
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );
  const subscriptions = new Set<string>();
  server.server.setRequestHandler('resources/subscribe', (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
}

/** Prompts: plain, with arguments, with an embedded resource, with an image. */
export function addPrompts(server: McpServer): void {
  const user = (text: string) => ({ role: 'user' as const, content: { type: 'text' as const, text } });
  server.registerPrompt('test_simple_prompt', { description: 'No arguments' }, () => ({
    messages: [user('This is a simple prompt for testing.')],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    { description: 'Two arguments', argsSchema: z.object({ arg1: z.string(), arg2: z.string() }) },
    ({ arg1, arg2 }) => ({ messages: [user(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`)] }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'Embeds a resource', argsSchema: z.object({ resourceUri: z.string() }) },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        user('Please process the embedded resource above.'),
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'Includes an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG_1X1, mimeType: 'image/png' } },
      user('Please analyze the image above.'),
    ],
  }));
}

/** `logging/setLevel` and `completion/complete`. */
export function addLoggingAndCompletion(server: McpServer): void {
  server.server.setRequestHandler('logging/setLevel', async (request) => {
    await server.server
      .sendLoggingMessage({
        level: 'info',
        logger: 'conformance',
        data: `Log level set to: ${request.params.level}`,
      })
      .catch(() => undefined);
    return {};
  });
  server.server.setRequestHandler('completion/complete', () => ({
    completion: { values: [], total: 0, hasMore: false },
  }));
}
