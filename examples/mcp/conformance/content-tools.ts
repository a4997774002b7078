/**
 * Conformance fixtures that need the SDK's request context (logging, sampling, elicitation,
 * closing an SSE stream) or a schema the registry's strict validator refuses, registered on each
 * server instance through `configure` (the content fixtures are registry tools:
 * `registry-fixtures.ts`).
 */
import { type CallToolResult, fromJsonSchema, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Tools that talk back to the client during the call. */
export function addInteractiveTools(server: McpServer): void {
  server.registerTool(
    'test_tool_with_logging',
    { description: 'Logs three messages', inputSchema: z.object({}) },
    async (_args, ctx) => {
      for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
        await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } });
        await wait(30);
      }
      return text('Tool with logging executed successfully');
    },
  );
  server.registerTool(
    'test_logging_tool',
    { description: 'Logs through the request channel', inputSchema: z.object({}) },
    async (_args, ctx) => {
      await ctx.mcpReq.log('info', 'test_logging_tool ran');
      return text('logged through the request-scoped channel');
    },
  );
  server.registerTool(
    'test_sampling',
    { description: 'Asks the client for a completion', inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      try {
        const result = await ctx.mcpReq.requestSampling({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        });
        const content = Array.isArray(result.content) ? result.content[0] : result.content;
        return text(`LLM response: ${content?.type === 'text' ? content.text : 'No response'}`);
      } catch (error) {
        return text(`Sampling not supported or error: ${describeError(error)}`);
      }
    },
  );
  const elicit = (name: string, message: string, properties: Record<string, unknown>, required: string[]) =>
    server.registerTool(
      name,
      { description: `Elicitation: ${message}`, inputSchema: z.object({ message: z.string().optional() }) },
      async (args, ctx) => {
        try {
          const result = await ctx.mcpReq.elicitInput({
            message: args.message ?? message,
            requestedSchema: { type: 'object', properties, required } as never,
          });
          return text(
            `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
          );
        } catch (error) {
          return text(`Elicitation not supported or error: ${describeError(error)}`);
        }
      },
    );
  elicit(
    'test_elicitation',
    'Please respond',
    { response: { type: 'string', description: "User's response" } },
    ['response'],
  );
  elicit(
    'test_elicitation_sep1034_defaults',
    'Please review and update the form fields with defaults',
    {
      name: { type: 'string', description: 'User name', default: 'John Doe' },
      age: { type: 'integer', description: 'User age', default: 30 },
      score: { type: 'number', description: 'User score', default: 95.5 },
      status: {
        type: 'string',
        description: 'User status',
        enum: ['active', 'inactive', 'pending'],
        default: 'active',
      },
      verified: { type: 'boolean', description: 'Verification status', default: true },
    },
    [],
  );
  const titled = (values: string[], titles: string[]) =>
    values.map((value, i) => ({ const: value, title: titles[i] }));
  elicit(
    'test_elicitation_sep1330_enums',
    'Please select options from the enum fields',
    {
      untitledSingle: {
        type: 'string',
        description: 'Select one option',
        enum: ['option1', 'option2', 'option3'],
      },
      titledSingle: {
        type: 'string',
        description: 'Select one option with titles',
        oneOf: titled(['value1', 'value2', 'value3'], ['First Option', 'Second Option', 'Third Option']),
      },
      legacyEnum: {
        type: 'string',
        description: 'Select one option (legacy)',
        enum: ['opt1', 'opt2', 'opt3'],
        enumNames: ['Option One', 'Option Two', 'Option Three'],
      },
      untitledMulti: {
        type: 'array',
        description: 'Select multiple options',
        minItems: 1,
        maxItems: 3,
        items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      },
      titledMulti: {
        type: 'array',
        description: 'Select multiple options with titles',
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: titled(['value1', 'value2', 'value3'], ['First Choice', 'Second Choice', 'Third Choice']),
        },
      },
    },
    [],
  );
  server.registerTool(
    'test_reconnection',
    { description: 'Closes its SSE stream mid-call', inputSchema: z.object({}) },
    async (_args, ctx) => {
      ctx.http?.closeSSE?.();
      await wait(100);
      return text('Reconnection test completed successfully.');
    },
  );
}

/**
 * Tools whose JSON Schemas must reach the client unchanged, and which the registry refuses: its
 * strict ajv rejects the `x-mcp-header` extension keyword (an unknown keyword) and `required`
 * names inside `anyOf` that the branch does not define (`strictRequired`).
 */
export function addSchemaTools(server: McpServer): void {
  server.registerTool(
    'test_x_mcp_header',
    {
      description: 'Mcp-Param-* header mirroring (SEP-2243)',
      inputSchema: fromJsonSchema<{ region?: string; level?: number }>({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' } as { type: 'string' },
          level: { type: 'integer' },
        },
      }),
    },
    (args) => text(`region=${args.region ?? '<none>'}`),
  );
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'JSON Schema 2020-12 keywords (SEP-1613)',
      inputSchema: fromJsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      }),
    },
    (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );
}
