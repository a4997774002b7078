import type { TraceContext } from './agent-tracer.ts';

/** The part of an OpenTelemetry `ContextManager` the agent uses. */
interface ContextManager {
  active(): TraceContext;
  with<R>(context: TraceContext, fn: () => R): R;
}

// Where `@opentelemetry/api` (major version 1) registers its globals, the context manager among
// them (`context.setGlobalContextManager`); read here so the optional peer is never imported.
const GLOBAL_KEY = Symbol.for('opentelemetry.js.api.1');

function contextManager(): ContextManager | undefined {
  const api = (globalThis as Record<symbol, { context?: ContextManager } | undefined>)[GLOBAL_KEY];
  return api?.context;
}

/**
 * The caller's active OpenTelemetry context (e.g. an HTTP server span), when a context manager is
 * registered; the parent of a run's span.
 */
export function activeTraceContext(): TraceContext | undefined {
  return contextManager()?.active();
}

/**
 * Runs `fn` with `context` active, so spans started inside it (a tool's own, an instrumented
 * driver's) and the async work it starts are children of `context`'s span. Without a registered
 * context manager, runs `fn` as is.
 * @example withActiveContext(contextWithSpan(span), () => source.subscribe(subscriber))
 */
export function withActiveContext<R>(context: TraceContext, fn: () => R): R {
  const manager = contextManager();
  return manager ? manager.with(context, fn) : fn();
}
