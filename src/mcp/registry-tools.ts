import { randomUUID } from 'node:crypto';
import type {
  CallToolResult,
  McpServer,
  RegisteredTool,
  ServerContext,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';

import type { ToolSpec } from '../core/index.ts';
import { lastValueFrom, tap } from 'rxjs';
import type { Actor } from '../security/index.ts';
import type {
  AnyTool,
  InvokeOptions,
  ToolAnnotations,
  JsonSchemaObject,
  ToolOutcome,
  ToolRegistry,
} from '../tools/index.ts';
import { actorOf } from './served-actor.ts';
import { servedContent } from './served-content.ts';

/**
 * A schema that advertises the tool's JSON Schema and lets every value through: the SDK lists the
 * real schema, and validation is the registry's own (strict, with a reason the caller can act on).
 */
function advertised(schema: Readonly<JsonSchemaObject>): StandardSchemaWithJSON {
  return {
    '~standard': {
      version: 1,
      vendor: 'rxagent',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => ({ ...schema }), output: () => ({ ...schema }) },
    },
  };
}

/** What the SDK lists of a tool beside its name and input: output schema, annotations, title. */
function listed(tool: AnyTool | undefined): {
  title?: string;
  outputSchema?: StandardSchemaWithJSON;
  annotations?: ToolAnnotations;
} {
  if (!tool) return {};
  const { outputSchema, annotations } = tool;
  return {
    ...(annotations?.title !== undefined ? { title: annotations.title } : {}),
    ...(annotations ? { annotations: { ...annotations } } : {}),
    ...(outputSchema ? { outputSchema: advertised(outputSchema) } : {}),
  };
}

/**
 * A progress value from a tool as a progress notification's fields: `{ progress, total?, message? }`
 * is taken as it is; anything else counts one step (`step`) with the value as its message.
 */
function progressFields(
  value: unknown,
  step: number,
): { progress: number; total?: number; message?: string } {
  if (typeof value === 'object' && value !== null && typeof Reflect.get(value, 'progress') === 'number') {
    const total: unknown = Reflect.get(value, 'total');
    const message: unknown = Reflect.get(value, 'message');
    return {
      progress: Reflect.get(value, 'progress') as number,
      ...(typeof total === 'number' ? { total } : {}),
      ...(typeof message === 'string' ? { message } : {}),
    };
  }
  if (typeof value === 'string') return { progress: step, message: value };
  try {
    const message = JSON.stringify(value);
    return message === undefined ? { progress: step } : { progress: step, message };
  } catch {
    return { progress: step };
  }
}

/**
 * An object result as structured content: a plain object as it is; a class instance (a `Point`, a
 * record class) as the JSON data it serializes to, which is what its output schema was checked
 * against, since the SDK refuses anything but a plain object there and the whole call would fail.
 * `undefined` for anything that is no JSON object.
 */
function structuredOf(result: unknown): Record<string, unknown> | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(result);
  if (prototype === Object.prototype || prototype === null) return result as Record<string, unknown>;
  try {
    const data: unknown = JSON.parse(JSON.stringify(result));
    return typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function toResult(outcome: ToolOutcome): CallToolResult {
  // An object result is also the structured content a client can read without parsing the text; a
  // tool with an output schema always returns one, checked against that schema by the registry.
  const structuredContent = outcome.status === 'ok' ? structuredOf(outcome.result) : undefined;
  return {
    content: servedContent(outcome.content),
    ...(structuredContent ? { structuredContent } : {}),
    isError: outcome.status !== 'ok',
  };
}

/**
 * Approval of a `needsApproval` call by the person behind the client, through MCP elicitation,
 * when the client offers it (2025 era; a 2026 client is not asked this way and the call is
 * rejected). `undefined` when the client cannot be asked.
 */
function elicitedApproval(ctx: ServerContext, server: McpServer): InvokeOptions['approve'] {
  if (server.server.getClientCapabilities()?.elicitation === undefined) return undefined;
  return async ({ toolCall, signal }) => {
    const reply = await ctx.mcpReq.elicitInput(
      {
        mode: 'form',
        message: `Allow ${toolCall.name}(${JSON.stringify(toolCall.arguments)})?`,
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean', title: `Run ${toolCall.name}` } },
          required: ['approve'],
        },
      },
      { signal },
    );
    return reply.action === 'accept' && reply.content?.approve === true;
  };
}

function approval(ctx: ServerContext, server: McpServer): Pick<InvokeOptions, 'approve'> {
  const approve = elicitedApproval(ctx, server);
  return approve ? { approve } : {};
}

/** Runs one served call through the registry: progress notifications, then the result. */
function callHandler(
  server: McpServer,
  registry: ToolRegistry,
  name: string,
  fallbackActor: Actor | undefined,
) {
  return async (args: unknown, ctx: ServerContext): Promise<CallToolResult> => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    let step = 0;
    const actor = actorOf(ctx) ?? fallbackActor;
    const events$ = registry.invoke$(
      // A JSON-RPC id is unique only within one session: the audit trail needs one per call.
      { id: `mcp-${randomUUID()}`, name, arguments: (args ?? {}) as Record<string, unknown> },
      { ...(actor ? { actor } : {}), signal: ctx.mcpReq.signal, ...approval(ctx, server) },
    );
    // Progress is sent in order and before the result: each notification waits for the one before.
    let sent = Promise.resolve();
    const last = await lastValueFrom(
      events$.pipe(
        tap((event) => {
          if (event.type !== 'progress' || progressToken === undefined) return;
          const params = { progressToken, ...progressFields(event.value, ++step) };
          sent = sent
            .then(() => ctx.mcpReq.notify({ method: 'notifications/progress', params }))
            .catch(() => undefined);
        }),
      ),
    );
    await sent;
    if (last.type !== 'outcome') throw new Error('the registry ended without an outcome');
    return toResult(last.outcome);
  };
}

/** What a client sees of a tool: a change to any of it means registering it again. */
const listingOf = (spec: ToolSpec, tool: AnyTool | undefined) =>
  JSON.stringify([spec.description, spec.parameters, tool?.outputSchema, tool?.annotations]);

/**
 * Serves every tool the registry offers (its policy's allow/deny applied) on `server`. A call goes
 * through `registry.invoke$`: validation, policy, authorization, audit; the request's cancellation
 * aborts the tool's signal; Observable progress becomes `notifications/progress`; any outcome but
 * `ok` is an `isError` result whose text is the registry's reason. Returns `sync`, which makes the
 * served set match the registry again (tools registered, changed or removed since): a server that
 * outlives one request (a 2025 session, a stdio connection) is synced before each list change is
 * announced.
 */
export function addRegistryTools(
  server: McpServer,
  registry: ToolRegistry,
  fallbackActor: Actor | undefined,
): () => void {
  const served = new Map<string, { registered: RegisteredTool; listing: string }>();
  const sync = () => {
    const specs = new Map(registry.definitions().map((spec) => [spec.name, spec]));
    for (const [name, { registered, listing }] of served) {
      const spec = specs.get(name);
      if (spec && listingOf(spec, registry.get(name)) === listing) continue;
      registered.remove();
      served.delete(name);
    }
    for (const spec of specs.values()) {
      if (served.has(spec.name)) continue;
      const tool = registry.get(spec.name);
      const registered = server.registerTool(
        spec.name,
        { description: spec.description, inputSchema: advertised(spec.parameters), ...listed(tool) },
        callHandler(server, registry, spec.name, fallbackActor),
      );
      served.set(spec.name, { registered, listing: listingOf(spec, tool) });
    }
  };
  sync();
  return sync;
}
