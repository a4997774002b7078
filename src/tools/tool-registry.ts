import type { Observable } from 'rxjs';
import {
  DuplicateToolError,
  ForbiddenToolArgumentError,
  type ToolCall,
  type ToolSpec,
} from '../core/index.ts';
import type { SecurityPolicy } from '../security/index.ts';
import { defaultJsonSchemaEngine } from '#json-schema-engine';
import { compileArgumentsCheck } from './arguments-check.ts';
import type { ToolInvocationStore } from './audit/tool-invocation-store.ts';
import { findIdentityArgument, identityNameSet } from './identity-names.ts';
import type { InvokeEnvironment } from './invoke/invoke-environment.ts';
import { invokeTool } from './invoke/invoke-tool.ts';
import { invokeStream } from './invoke/invoke-stream.ts';
import { recordInterrupted } from './invoke/record-interrupted.ts';
import type { InvokeOptions } from './invoke-options.ts';
import type { JsonSchemaDialect } from './json-schema.ts';
import type { JsonSchemaEngine, JsonSchemaEngineFactory, JsonSchemaFormats } from './json-schema-engine.ts';
import type { RegisteredTool } from './registered-tool.ts';
import { runWithConcurrency } from './run-with-concurrency.ts';
import { strictTool, type ToolLike } from './strict-tool.ts';
import type { AnyTool } from './tool.ts';
import type { ToolInvocationEvent } from './tool-invocation-event.ts';
import type { ToolOutcome } from './tool-outcome.ts';

/** Options of `ToolRegistry`; every limit can be raised or lowered. */
export interface ToolRegistryOptions {
  /** Longest string argument (and key), in UTF-8 bytes; a tool's own `maxArgBytes` wins. @default 10_240 */
  maxArgBytes?: number;
  /** Deepest nesting of the arguments (the arguments object is level 1). @default 16 */
  maxArgDepth?: number;
  /** Largest arguments, in UTF-8 bytes of JSON. @default 102_400 */
  maxTotalArgBytes?: number;
  /** Longest text the model sees for a result; longer is cut, with a marker. @default 102_400 */
  maxResultBytes?: number;
  /** Time a tool may run; a tool's own `timeoutMs` wins; `Infinity` for none. @default 60_000 */
  timeoutMs?: number;
  policy?: SecurityPolicy;
  /** Where every invocation is recorded before its outcome is returned. */
  audit?: ToolInvocationStore;
  /** More identity-shaped argument names to refuse, beside `IDENTITY_ARGUMENT_NAMES`. */
  forbiddenArgumentNames?: readonly string[];
  /** JSON Schema `format`s to assert (e.g. from ajv-formats); other formats are annotations. */
  formats?: JsonSchemaFormats;
  /**
   * What validates arguments against their JSON Schema. The default suits the runtime: ajv, or
   * where code generation is forbidden (the `workerd`/`worker` export conditions) the code-free
   * `@cfworker/json-schema`; both give the same verdicts.
   */
  jsonSchemaEngine?: JsonSchemaEngineFactory;
  /**
   * Receives failures no caller is left to see: the audit trail failing for an `invoke$` call whose
   * subscriber had already unsubscribed, or for an `invokeAll` call after another call of the batch
   * had failed. Must not throw.
   * @default logs with `console.error`
   */
  onError?: (error: unknown, call: ToolCall) => void;
}

/** Options of `ToolRegistry.invokeAll`. */
export interface InvokeAllOptions extends Omit<InvokeOptions, 'onProgress'> {
  /** Calls running at once. @default 8 */
  concurrency?: number;
}

/**
 * The tools an agent may call, and the one way to call them: `invoke` validates strictly, applies
 * the security policy and `authorize`, runs `execute` with a timeout, audits, and returns a
 * `ToolOutcome` (never throws for a bad call).
 * @example
 * const tools = new ToolRegistry({ policy, audit: fileAuditStore({ path: 'audit.jsonl' }) });
 * tools.register(getWeather);
 * const outcome = await tools.invoke(toolCall, { actor, signal });
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #engines = new Map<JsonSchemaDialect, JsonSchemaEngine>();
  readonly #options: ToolRegistryOptions;
  readonly #env: InvokeEnvironment;
  readonly #identityNames: ReadonlySet<string>;

  constructor(options: ToolRegistryOptions = {}) {
    this.#options = options;
    this.#identityNames = identityNameSet(options.forbiddenArgumentNames);
    this.#env = {
      resolve: (name) => this.#tools.get(name),
      policy: options.policy,
      audit: options.audit,
      maxResultBytes: options.maxResultBytes ?? 102_400,
      timeoutMs: options.timeoutMs ?? 60_000,
    };
  }

  /**
   * Adds a tool, compiling its argument check once. Every tool is made strict first (`strictTool`),
   * however it was built: a hand-built `Tool` gets the same strictness as a `defineTool` one.
   * Throws `DuplicateToolError` (unless `replace`), `InvalidToolNameError`,
   * `ForbiddenToolArgumentError` or `InvalidToolSchemaError`.
   */
  register(tool: AnyTool | ToolLike, options: { replace?: boolean } = {}): this {
    const strict = strictTool(tool as ToolLike);
    const previous = this.#tools.get(strict.name);
    if (previous && !options.replace) throw new DuplicateToolError(strict.name);
    const identity = findIdentityArgument(strict.parameters, this.#identityNames);
    if (identity) throw new ForbiddenToolArgumentError(strict.name, identity.name, identity.pointer);
    const check = compileArgumentsCheck(
      strict,
      this.#engineFor(strict.dialect),
      {
        maxArgBytes: strict.maxArgBytes ?? this.#options.maxArgBytes ?? 10_240,
        maxDepth: this.#options.maxArgDepth ?? 16,
        maxTotalBytes: this.#options.maxTotalArgBytes ?? 102_400,
      },
      this.#identityNames,
    );
    if (previous && previous.tool.parameters !== strict.parameters) previous.arguments.release();
    this.#tools.set(strict.name, { tool: strict, arguments: check });
    return this;
  }

  /** Removes a tool; returns whether it was there. */
  unregister(name: string): boolean {
    const entry = this.#tools.get(name);
    entry?.arguments.release();
    return this.#tools.delete(name);
  }

  /** The registered (strict) form of a tool. */
  get(name: string): AnyTool | undefined {
    return this.#tools.get(name)?.tool;
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Registered tool names, in registration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /**
   * The tools to offer in a `ChatRequest`: those the policy allows, narrowed to `allowed` when given.
   * @param allowed tool names to offer (others are left out)
   */
  definitions(allowed?: readonly string[]): ToolSpec[] {
    const only = allowed ? new Set(allowed) : undefined;
    const specs: ToolSpec[] = [];
    for (const { tool } of this.#tools.values()) {
      if (only && !only.has(tool.name)) continue;
      if (this.#env.policy && !this.#env.policy.isAllowed(tool.name)) continue;
      specs.push({ name: tool.name, description: tool.description, parameters: tool.parameters });
    }
    return specs;
  }

  /** Runs one tool call and resolves with its outcome; rejects only if the audit trail fails. */
  invoke(call: ToolCall, options: InvokeOptions = {}): Promise<ToolOutcome> {
    return invokeTool(this.#env, call, options);
  }

  /**
   * Settles a call that may have run in a process that stopped before it answered (a durable run's
   * call in doubt) as `interrupted`, without running anything: the same outcome path as `invoke`
   * (content filter, cap, audit `outcome` record). Rejects only if the audit trail fails.
   * @param message what the model is told @default `interruptedOutcome`'s explanation
   */
  recordInterrupted(
    call: ToolCall,
    options: Pick<InvokeOptions, 'actor'> = {},
    message?: string,
  ): Promise<ToolOutcome> {
    return recordInterrupted(this.#env, call, options, message);
  }

  /**
   * `invoke` as a cold Observable: `progress` events (values of an Observable `execute` but the last),
   * then one `outcome`. Unsubscribing cancels the call (its signal is aborted); the call still writes
   * its audit records, and an audit failure after the subscriber left goes to `onError`.
   */
  invoke$(call: ToolCall, options: Omit<InvokeOptions, 'onProgress'> = {}): Observable<ToolInvocationEvent> {
    return invokeStream(this.#env, call, options, (error, failed) => this.#reportError(error, failed));
  }

  /**
   * Runs calls in parallel (at most `concurrency` at once); outcomes come in the order of `calls`.
   * Rejects when the audit trail fails for one call: no further call starts, and a failure of a
   * call still running goes to `onError`.
   */
  invokeAll(calls: readonly ToolCall[], options: InvokeAllOptions = {}): Promise<ToolOutcome[]> {
    const { concurrency = 8, ...invokeOptions } = options;
    return runWithConcurrency(
      calls,
      concurrency,
      (call) => invokeTool(this.#env, call, invokeOptions),
      (error, call) => this.#reportError(error, call),
    );
  }

  #reportError(error: unknown, call: ToolCall): void {
    try {
      if (this.#options.onError) this.#options.onError(error, call);
      else
        console.error(
          `rxagent: tool call ${call.id} (${call.name}) failed with no caller left to see it`,
          error,
        );
    } catch {
      // onError must not throw; there is no one left to tell.
    }
  }

  #engineFor(dialect: JsonSchemaDialect): JsonSchemaEngine {
    let engine = this.#engines.get(dialect);
    if (!engine) {
      engine = (this.#options.jsonSchemaEngine ?? defaultJsonSchemaEngine)(
        dialect,
        this.#options.formats ?? {},
      );
      this.#engines.set(dialect, engine);
    }
    return engine;
  }
}
