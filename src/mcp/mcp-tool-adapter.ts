import { catchError, map, type Observable, throwError } from 'rxjs';
import { InvalidToolSchemaError, McpError, ToolExecutionError, ToolInterruptedError } from '../core/index.ts';
import {
  type AnyTool,
  defineTool,
  type JsonSchemaObject,
  strictTool,
  type ToolAnnotations,
} from '../tools/index.ts';
import { defaultJsonSchemaEngine } from '#json-schema-engine';
import { isRecord, type JsonSchemaDialect, jsonSchemaDialect } from '../tools/json-schema.ts';
import type { JsonSchemaEngine } from '../tools/json-schema-engine.ts';
import { TOOL_ANNOTATION_HINTS } from '../tools/tool-annotations.ts';
import type { McpCallOptions } from './call-tool.ts';
import type { McpLogger } from './connect-options.ts';
import type { McpToolEvent, McpToolInfo } from './mcp-tool-event.ts';
import { prefixedToolName } from './prefixed-tool-name.ts';
import { type McpToolResult, resultForModel } from './result-for-model.ts';
import { contentSummary } from '../tools/content-summary.ts';

/** What an adapter needs of a client. */
export interface McpToolCaller {
  readonly name: string;
  callTool(name: string, args: Record<string, unknown>, options?: McpCallOptions): Observable<McpToolEvent>;
}

/** Progress as a registry's `onProgress` receives it from an MCP tool. */
export type McpToolProgress = Extract<McpToolEvent, { type: 'progress' }>;

const UNAVAILABLE = new Set(['unavailable', 'connect_failed']);

/**
 * The result value of a call: its content blocks and structured content (the model is sent them by
 * `toModelContent`); an `isError` result or an unreachable server becomes a `ToolExecutionError`,
 * whose message the model sees ("temporarily unavailable" rather than a crash); a server that died
 * mid-call a `ToolInterruptedError` (outcome status `interrupted`).
 */
function settle(tool: string, structured: boolean) {
  return map((event: McpToolEvent): McpToolProgress | McpToolResult | Record<string, unknown> => {
    if (event.type === 'progress') return event;
    if (event.isError)
      throw new ToolExecutionError(contentSummary(resultForModel(event)), { toolName: tool });
    const { structuredContent } = event;
    const result = {
      content: event.content,
      ...(structuredContent !== undefined ? { structuredContent } : {}),
    };
    if (!structured || !isRecord(structuredContent)) return result;
    // A tool with an output schema has its structured content as its result (checked against that
    // schema, as a local tool's result is); the model is still sent the blocks.
    blocksOf.set(structuredContent, result);
    return structuredContent;
  });
}

/** The whole MCP result behind a structured result, for what the model is sent. */
const blocksOf = new WeakMap<object, McpToolResult>();

function forModel(result: unknown): McpToolResult {
  // The structured result first: its own members (a `content` array of strings, say) are data,
  // never blocks to read as the model's content.
  const blocks = isRecord(result) ? blocksOf.get(result) : undefined;
  if (blocks) return blocks;
  if (isRecord(result) && !Array.isArray(result.content)) return { content: [], structuredContent: result };
  return result as McpToolResult;
}

/** The default engine of each dialect, for trying a server's output schema. */
const engines = new Map<JsonSchemaDialect, JsonSchemaEngine>();

/**
 * Why a registry cannot compile a server's schema (with the default engine, as a registry does when
 * it registers the tool), or `undefined` when it can: a keyword ajv's strict mode refuses
 * (`discriminator`, `x-ui`) would make registering the adapted tool throw.
 */
function compileError(schema: unknown): unknown {
  if (!isRecord(schema)) return new Error('not a JSON Schema object');
  const dialect = jsonSchemaDialect(schema) ?? 'draft-2020-12';
  let engine = engines.get(dialect);
  if (!engine) engines.set(dialect, (engine = defaultJsonSchemaEngine(dialect, {})));
  try {
    engine.compile(schema).release();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A server's tool annotations, the well-typed fields only (a hint from a server is only a hint). */
function annotationsOf(info: McpToolInfo): ToolAnnotations | undefined {
  const given: Record<string, unknown> = isRecord(info.annotations) ? info.annotations : {};
  const title = typeof given.title === 'string' ? given.title : info.title;
  const annotations: ToolAnnotations = typeof title === 'string' ? { title } : {};
  for (const hint of TOOL_ANNOTATION_HINTS)
    if (typeof given[hint] === 'boolean') annotations[hint] = given[hint];
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

function explain(server: string, tool: string, error: unknown): unknown {
  if (!McpError.is(error)) return error;
  // The call was sent and the server died before answering: it may have acted already, and a
  // model told to "try again" would repeat a payment or a deletion.
  if (error.reason === 'disconnected') {
    return new ToolInterruptedError(
      `The ${server} server stopped while running this call; it may or may not have taken effect. Check before repeating it`,
      { toolName: tool, cause: error },
    );
  }
  if (!UNAVAILABLE.has(error.reason)) return error;
  return new ToolExecutionError(`The ${server} server is temporarily unavailable; try again later`, {
    toolName: tool,
    cause: error,
  });
}

/**
 * Adapts an MCP tool for a `ToolRegistry`: strict local validation of its input schema before any
 * call leaves the process; `execute` returns the call's Observable (progress, then the result: its
 * blocks and structured content, `outcome.result`; for a tool with an `outputSchema`, the
 * structured content itself, checked against it); the model is sent the blocks, images and audio
 * as media. The server's annotations (hints, title) are the tool's `annotations`.
 * Throws what `defineTool` throws for a schema that cannot be made strict.
 */
export function mcpToolAdapter(caller: McpToolCaller, info: McpToolInfo, name = info.name): AnyTool {
  if (info.outputSchema && compileError(info.outputSchema) === undefined) {
    try {
      return compiled(adapter(caller, info, name, info.outputSchema as JsonSchemaObject));
    } catch (error) {
      // An output schema that cannot be checked here costs the tool its structured result, not the tool.
      if (!InvalidToolSchemaError.is(error)) throw error;
    }
  }
  return compiled(adapter(caller, info, name, undefined));
}

/**
 * The adapter, once its strict input schema is known to compile: one a registry cannot compile is
 * an `InvalidToolSchemaError` here, so `mcpToolAdapters` leaves that tool out rather than have
 * `registry.register` throw for the whole listing.
 */
function compiled(tool: AnyTool): AnyTool {
  const error = compileError(strictTool(tool).parameters);
  if (error === undefined) return tool;
  const reason = error instanceof Error ? error.message : String(error);
  throw new InvalidToolSchemaError(tool.name, reason, { cause: error });
}

function adapter(
  caller: McpToolCaller,
  info: McpToolInfo,
  name: string,
  outputSchema: JsonSchemaObject | undefined,
): AnyTool {
  const server = caller.name;
  const annotations = annotationsOf(info);
  return defineTool({
    name,
    description: info.description ?? info.title ?? info.name,
    input: info.inputSchema as JsonSchemaObject,
    origin: 'mcp',
    ...(outputSchema ? { outputSchema } : {}),
    ...(annotations ? { annotations } : {}),
    // The client's own timeouts govern: reset by each progress notification, capped by maxTimeoutMs.
    timeoutMs: Infinity,
    // The last value of the call's Observable is its result; the progress values before it are not results.
    toModelContent: (result) => resultForModel(forModel(result)),
    execute: (args, context) =>
      caller.callTool(info.name, args, { signal: context.signal }).pipe(
        settle(info.name, outputSchema !== undefined),
        catchError((error: unknown) => throwError(() => explain(server, info.name, error))),
      ),
  }) as AnyTool;
}

/**
 * Adapters for every tool that can be made strict; the others are logged and left out. Two tools
 * of one server that map to one name (`a b` and `a_b`, or a name listed twice) cannot both be
 * registered: the one whose name needed no change wins (else the first listed), the other is
 * logged and left out, so one broken or hostile listing never makes `registry.register` throw.
 */
export function mcpToolAdapters(
  caller: McpToolCaller,
  tools: readonly McpToolInfo[],
  prefix: string,
  logger: McpLogger | undefined,
): AnyTool[] {
  const named = tools.map((info) => ({ info, name: prefixedToolName(prefix, info.name) }));
  const exact = (each: (typeof named)[number]) => each.name === `${prefix}${each.info.name}`;
  const taken = new Set<string>();
  const adapters: AnyTool[] = [];
  for (const { info, name } of [...named.filter(exact), ...named.filter((each) => !exact(each))]) {
    if (taken.has(name)) {
      logger?.warn?.({ server: caller.name, tool: info.name, name }, 'MCP tool left out: its name is taken');
      continue;
    }
    try {
      adapters.push(mcpToolAdapter(caller, info, name));
      taken.add(name);
    } catch (error) {
      logger?.warn?.({ server: caller.name, tool: info.name, error }, 'MCP tool left out');
    }
  }
  return adapters;
}
