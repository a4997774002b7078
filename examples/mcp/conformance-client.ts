/**
 * The client the official MCP conformance suite tests, built on `connectMcp`. The suite runs it
 * once per scenario with the scenario's name in MCP_CONFORMANCE_SCENARIO, the revision in
 * MCP_CONFORMANCE_PROTOCOL_VERSION and the server URL as the argument.
 *
 *   MCP_CONFORMANCE_SCENARIO=tools_call npx node --conditions=rxagent-source examples/mcp/conformance-client.ts http://localhost:3000/mcp
 */
import { lastValueFrom } from 'rxjs';
import { connectMcp, type McpClient, type McpHttpOptions } from 'rxagent/mcp';
import { withLocalDiscover } from './conformance/discover-shim.ts';
import { MemoryOAuthProvider } from './conformance/memory-oauth-provider.ts';

type Scenario = (url: URL) => Promise<void>;

const modern = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === '2026-07-28';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
};
const info = { name: 'rxagent-conformance-client', version: '1.0.0' };

function connect(url: URL, options: Partial<McpHttpOptions> = {}): Promise<McpClient> {
  return connectMcp({
    name: 'conformance',
    url,
    clientInfo: info,
    transport: 'streamable-http',
    versionNegotiation: modern ? 'auto' : 'legacy',
    ...options,
  });
}

const call = (client: McpClient, name: string, args: Record<string, unknown> = {}) =>
  lastValueFrom(client.callTool(name, args));

const listAndCall =
  (toolName?: string, args: Record<string, unknown> = {}): Scenario =>
  async (url) => {
    const client = await connect(url);
    const tools = await client.listTools();
    if (toolName && tools.some((tool) => tool.name === toolName)) await call(client, toolName, args);
    await client.close();
  };

const withOAuth =
  (provider: MemoryOAuthProvider): Scenario =>
  async (url) => {
    // The library's own OAuth login: 401/403, discovery, registration, code exchange, retry.
    const oauth = { provider, authorizationCode: () => provider.authorizationCode() };
    const client = await connect(url, { oauth, versionNegotiation: 'auto' });
    await client.listTools();
    await call(client, 'test-tool');
    await client.close();
  };

const headerClient = (url: URL) =>
  connect(url, { fetch: withLocalDiscover(info), versionNegotiation: 'auto' });

const scenarios: Record<string, Scenario> = {
  initialize: listAndCall(),
  tools_call: listAndCall('add_numbers', { a: 5, b: 3 }),
  'sse-retry': listAndCall('test_reconnection'),
  'json-schema-ref-no-deref': listAndCall(),
  'request-metadata': async (url) => {
    const client = await connect(url, {
      versionNegotiation: 'auto',
      capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} },
    });
    await client.close();
  },
  'elicitation-sep1034-client-defaults': async (url) => {
    const client = await connect(url, {
      capabilities: { elicitation: { form: { applyDefaults: true } } },
      configure: (sdk) =>
        sdk.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: {} })),
    });
    await call(client, 'test_client_elicitation_defaults');
    await client.close();
  },
  'json-schema-2020-12-preservation': async (url) => {
    const client = await connect(url);
    const focal = (await client.listTools()).find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('json_schema_2020_12_tool is not listed');
    await call(client, 'json_schema_echo', { schema: focal.inputSchema });
    await client.close();
  },
  'sep-2322-client-request-state': async (url) => {
    const client = await connect(url, {
      fetch: withLocalDiscover(info),
      versionNegotiation: 'auto',
      capabilities: { elicitation: {} },
      configure: (sdk) =>
        sdk.setRequestHandler('elicitation/create', () => ({
          action: 'accept',
          content: { confirmed: true },
        })),
    });
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated'])
      await call(client, name);
    // A result without resultType is a protocol violation: refused locally, never retried.
    await call(client, 'test_mrtr_no_result_type').catch(() => undefined);
    await client.close();
  },
  'http-standard-headers': async (url) => {
    const client = await headerClient(url);
    const [tool] = await client.listTools();
    if (tool) await call(client, tool.name);
    const [resource] = await client.listResources();
    if (resource) await client.readResource(resource.uri);
    const [prompt] = await client.listPrompts();
    if (prompt) await client.getPrompt(prompt.name);
    await client.close();
  },
  'http-custom-headers': async (url) => {
    const client = await headerClient(url);
    for (const { name, arguments: args } of context.toolCalls ?? []) await call(client, name, args);
    await client.close();
  },
  'http-invalid-tool-headers': async (url) => {
    const client = await headerClient(url);
    for (const tool of await client.listTools())
      await call(client, tool.name, { region: 'us-west1' }).catch(() => undefined);
    await client.close();
  },
  'auth/pre-registration': async (url) => {
    const provider = new MemoryOAuthProvider('conformance-pre-registration');
    provider.saveClientInformation({
      client_id: context.client_id ?? '',
      ...(context.client_secret ? { client_secret: context.client_secret } : {}),
      redirect_uris: [provider.redirectUrl],
    });
    await withOAuth(provider)(url);
  },
};

const AUTH_SCENARIOS = [
  'basic-cimd',
  'metadata-default',
  'metadata-var1',
  'metadata-var2',
  'metadata-var3',
  '2025-03-26-oauth-metadata-backcompat',
  '2025-03-26-oauth-endpoint-fallback',
  'resource-mismatch',
  'scope-from-www-authenticate',
  'scope-from-scopes-supported',
  'scope-omitted-when-undefined',
  'scope-step-up',
  'scope-retry-limit',
  'token-endpoint-auth-basic',
  'token-endpoint-auth-post',
  'token-endpoint-auth-none',
  'offline-access-scope',
  'offline-access-not-supported',
  'iss-supported',
  'iss-not-advertised',
  'iss-supported-missing',
  'iss-wrong-issuer',
  'iss-unexpected',
  'iss-normalized',
  'metadata-issuer-mismatch',
  'authorization-server-migration',
];
for (const name of AUTH_SCENARIOS) {
  scenarios[`auth/${name}`] = (url) =>
    withOAuth(
      new MemoryOAuthProvider(
        'rxagent-conformance-client',
        'https://conformance-test.local/client-metadata.json',
      ),
    )(url);
}

const scenario = scenarios[process.env.MCP_CONFORMANCE_SCENARIO ?? ''];
const target = process.argv[2];
if (!scenario || !target) {
  console.error(
    `usage: MCP_CONFORMANCE_SCENARIO=<one of ${Object.keys(scenarios).join(', ')}> conformance-client <url>`,
  );
  process.exit(2);
}
try {
  await scenario(new URL(target));
  process.exit(0);
} catch (error) {
  console.error(error);
  process.exit(1);
}
