import type { ChatModel } from '../core/index.ts';
import type { SessionStore } from '../sessions/index.ts';
import type { AnyTool, ToolRegistry } from '../tools/index.ts';
import type { AgentExtension } from './agent-extension.ts';
import type { AgentOptions, Approver } from './agent-options.ts';
import type { ResponseCache } from './response-cache.ts';

const isList = (tools: ToolRegistry | readonly AnyTool[]): tools is readonly AnyTool[] =>
  Array.isArray(tools);

type Build<A> = (options: AgentOptions, extensions: AgentExtension<A>[]) => A;

/**
 * Builds an agent step by step; every method sets one option of `AgentOptions` and returns the
 * builder. Create it with `Agent.builder()`.
 * @example const agent = Agent.builder().model(m).tools([getWeather]).system('Be brief.').maxSteps(5).build();
 */
export class AgentBuilder<A = unknown> {
  readonly #build: Build<A>;
  #options: Partial<AgentOptions> = {};
  readonly #extensions: AgentExtension<A>[] = [];

  /** @param build makes the agent (`Agent.builder()` passes `Agent.create`) */
  constructor(build: Build<A>) {
    this.#build = build;
  }

  #set(options: Partial<AgentOptions>): this {
    this.#options = { ...this.#options, ...options };
    return this;
  }

  model(model: ChatModel): this {
    return this.#set({ model });
  }
  /**
   * A registry, or tools (added to those given before). A registry cannot be combined with other
   * tools here (one of them would be dropped): register them in the registry.
   * @throws TypeError for a registry with any other `tools(...)`
   */
  tools(tools: ToolRegistry | readonly AnyTool[]): this {
    const previous = this.#options.tools;
    if (previous === undefined) return this.#set({ tools });
    if (!isList(tools) || !isList(previous)) {
      throw new TypeError('Agent.builder().tools(): give one ToolRegistry, or lists of tools, not both');
    }
    return this.#set({ tools: [...previous, ...tools] });
  }
  system(system: string): this {
    return this.#set({ system });
  }
  name(name: string): this {
    return this.#set({ name });
  }
  maxSteps(maxSteps: number): this {
    return this.#set({ maxSteps });
  }
  budgets(
    budgets: Pick<AgentOptions, 'maxToolCalls' | 'maxInvalidToolCalls' | 'maxRepeatedToolCalls'>,
  ): this {
    return this.#set(budgets);
  }
  toolConcurrency(toolConcurrency: number): this {
    return this.#set({ toolConcurrency });
  }
  stepRetries(stepRetries: number): this {
    return this.#set({ stepRetries });
  }
  temperature(temperature: number): this {
    return this.#set({ temperature });
  }
  sessions(
    sessions: SessionStore,
    options: Pick<AgentOptions, 'onConflict' | 'persistPartialRuns'> = {},
  ): this {
    return this.#set({ sessions, ...options });
  }
  responseCache(responseCache: ResponseCache, ttlMs?: number): this {
    return this.#set({ responseCache, ...(ttlMs === undefined ? {} : { responseCacheTtlMs: ttlMs }) });
  }
  approve(approve: Approver, timeoutMs?: number): this {
    return this.#set({ approve, ...(timeoutMs === undefined ? {} : { approvalTimeoutMs: timeoutMs }) });
  }
  observe(observers: Pick<AgentOptions, 'logger' | 'tracer'>): this {
    return this.#set(observers);
  }
  use(extension: AgentExtension<A>): this {
    this.#extensions.push(extension);
    return this;
  }

  /** The agent; throws `TypeError` when no model was given. */
  build(): A {
    const { model } = this.#options;
    if (!model) throw new TypeError('Agent.builder() needs .model(...) before .build()');
    return this.#build({ ...this.#options, model }, [...this.#extensions]);
  }
}
