import { defer, firstValueFrom, lastValueFrom, type Observable } from 'rxjs';
import { type Message, RxAgentError, user } from '../core/index.ts';
import { ToolRegistry, type ToolOutcome } from '../tools/index.ts';
import type { AgentEvent, AgentResult } from './agent-event.ts';
import type { AgentExtension } from './agent-extension.ts';
import type { AgentInput, AgentOptions, InvokeToolOptions, RunOptions } from './agent-options.ts';
import { approvalDecision } from './approval-decision.ts';
import { AgentBuilder } from './agent-builder.ts';
import { registerRunEnv } from './agent-run-env.ts';
import { type AgentLimits, agentLimits } from './agent-limits.ts';
import { ExtensionTools } from './extension-tools.ts';
import type { AgentOutput, OutputOf } from './run-controls.ts';
import { runControls, runMaxSteps } from './resolve-controls.ts';
import { type RunEnv, runAgent } from './run-agent.ts';

/** `Agent.create`'s plain-object configuration: the agent's options plus its extensions. */
export interface AgentConfig extends AgentOptions {
  extensions?: readonly AgentExtension<Agent>[];
}

const inputMessages = (input: AgentInput): readonly Message[] =>
  typeof input === 'string' ? [user(input)] : 'role' in input ? [input] : [...(input as readonly Message[])];

/**
 * A tool-using agent: each run streams model turns, runs the tools they ask for through the
 * registry (validation, policy, authorization, approvals, audit) and streams again until the model
 * answers, within budgets; with `sessions`, the conversation continues across runs.
 * @example
 * const agent = new Agent({ model: openai('gpt-4o-mini'), tools: [getWeather], sessions: memorySessionStore() });
 * const { text } = await agent.chat('Weather in Oslo?', { sessionId: 'user-42' });
 */
export class Agent {
  readonly options: Readonly<AgentOptions>;
  /** The registry every call goes through (the one given, or one holding the given tools). */
  readonly tools: ToolRegistry;
  readonly #extensions: ExtensionTools;
  readonly #limits: AgentLimits;

  /** @throws RangeError for a budget, concurrency, retry count or timeout out of range */
  constructor(options: AgentOptions) {
    this.#limits = agentLimits(options);
    this.options = Object.freeze({ ...options });
    if (options.tools instanceof ToolRegistry) this.tools = options.tools;
    else {
      this.tools = new ToolRegistry();
      for (const tool of options.tools ?? []) this.tools.register(tool);
    }
    this.#extensions = new ExtensionTools(this.tools);
    registerRunEnv(this, (run) => this.#runEnv(run));
  }

  /** A builder: `Agent.builder().model(m).tools([...]).system(s).build()`. */
  static builder(): AgentBuilder<Agent> {
    return new AgentBuilder<Agent>((options, extensions) => Agent.create({ ...options, extensions }));
  }

  /** An agent from a plain configuration object, its extensions applied in order. */
  static create(config: AgentConfig): Agent {
    const { extensions = [], ...options } = config;
    const agent = new Agent(options);
    for (const extension of extensions) agent.use(extension);
    return agent;
  }

  /** Adds an extension's tools (kept in step with its list before every step) and runs its `setup`. */
  use(extension: AgentExtension<Agent>): this {
    this.#extensions.add(extension);
    extension.setup?.(this);
    return this;
  }

  /**
   * Runs the agent: a cold stream of events (step starts, text deltas, approvals, tool results, step
   * ends) ending with `agent-completed`. Unsubscribing or aborting `signal` cancels the model request
   * and every running tool.
   */
  run<S extends AgentOutput | undefined = undefined>(
    input: AgentInput,
    options: RunOptions<S> = {},
  ): Observable<AgentEvent<OutputOf<S>>> {
    // The result's `object` is what `output` validated, so its type is the schema's output type.
    return defer(() => runAgent(this.#runEnv(options), inputMessages(input))) as Observable<
      AgentEvent<OutputOf<S>>
    >;
  }

  /** Runs the agent and resolves with the result (`lastValueFrom(run(...))`). */
  async chat<S extends AgentOutput | undefined = undefined>(
    input: AgentInput,
    options: RunOptions<S> = {},
  ): Promise<AgentResult<OutputOf<S>>> {
    const last = await lastValueFrom(this.run(input, options));
    if (last.type !== 'agent-completed')
      throw new RxAgentError('The run ended without a result', 'no_result');
    return last.result;
  }

  /**
   * Calls one tool through the same pipeline as the agent's own calls (approvals included). Every
   * failure is a rejection (async), never a throw.
   */
  async invokeTool(
    name: string,
    args: Record<string, unknown>,
    options: InvokeToolOptions = {},
  ): Promise<ToolOutcome> {
    this.#extensions.sync();
    const approver = options.approve ?? this.options.approve;
    const { actor, signal } = options;
    return this.tools.invoke(
      { id: `call_${globalThis.crypto.randomUUID()}`, name, arguments: args },
      {
        ...(actor ? { actor } : {}),
        ...(signal ? { signal } : {}),
        approve: (request) =>
          firstValueFrom(
            approvalDecision(
              approver,
              { step: 0, toolCall: request.toolCall, ...(actor ? { actor } : {}) },
              request.signal,
              this.#limits.approvalTimeoutMs,
            ),
          ),
      },
    );
  }

  #runEnv(run: RunOptions<AgentOutput | undefined>): RunEnv {
    const o = this.options;
    if (run.sessionId !== undefined && !o.sessions) {
      throw new RxAgentError('sessionId needs an agent with `sessions`', 'no_session_store');
    }
    this.#extensions.sync();
    const settings = {
      ...(o.temperature === undefined ? {} : { temperature: o.temperature }),
      ...(o.maxOutputTokens === undefined ? {} : { maxOutputTokens: o.maxOutputTokens }),
      ...(o.providerOptions === undefined ? {} : { providerOptions: o.providerOptions }),
    };
    return {
      model: o.model,
      system: o.system,
      settings,
      registry: this.tools,
      toolSpecs: () => {
        this.#extensions.sync();
        return this.tools.definitions();
      },
      actor: run.actor,
      sessionId: run.sessionId,
      approve: run.approve ?? o.approve,
      approvalTimeoutMs: this.#limits.approvalTimeoutMs,
      concurrency: this.#limits.concurrency,
      budgets:
        run.maxSteps === undefined
          ? this.#limits.budgets
          : { ...this.#limits.budgets, maxSteps: runMaxSteps(run.maxSteps) },
      controls: runControls(run),
      context: o.context,
      stepRetries: this.#limits.stepRetries,
      cache: o.responseCache ? { store: o.responseCache, ttlMs: this.#limits.responseCacheTtlMs } : undefined,
      logger: o.logger,
      tracer: o.tracer,
      session:
        run.sessionId !== undefined && o.sessions
          ? {
              store: o.sessions,
              id: run.sessionId,
              onConflict: o.onConflict ?? 'rebase',
              persistPartialRuns: o.persistPartialRuns ?? true,
              metadata: run.metadata,
              waitMs: this.#limits.sessionWaitMs,
            }
          : undefined,
      signal: run.signal,
      agentName: o.name,
    };
  }
}
