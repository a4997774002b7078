/**
 * The part of `@opentelemetry/api` the agent uses, written out structurally so that rxagent's
 * declaration files never import the optional peer: an OpenTelemetry `Tracer`, `Span` and `Context`
 * fit these types, and a user without `@opentelemetry/api` installed still type-checks.
 */

/** An attribute value, as OpenTelemetry accepts it. */
export type TraceAttributeValue = string | number | boolean | string[] | number[] | boolean[];

/** An OpenTelemetry `Context`: immutable values keyed by symbols. */
export interface TraceContext {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): TraceContext;
  deleteValue(key: symbol): TraceContext;
}

/** An OpenTelemetry `Span`, as far as the agent writes to it. */
export interface TraceSpan {
  setAttribute(key: string, value: TraceAttributeValue): unknown;
  setAttributes(attributes: Record<string, TraceAttributeValue>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): void;
  end(): void;
}

/**
 * An OpenTelemetry tracer (`trace.getTracer('my-app')`); `@opentelemetry/api` is an optional peer.
 * @example new Agent({ model, tracer: trace.getTracer('my-app') })
 */
export interface AgentTracer {
  startSpan(
    name: string,
    /** `kind`: a `SpanKind` value (0 internal, 2 client). */
    options?: { attributes?: Record<string, TraceAttributeValue>; kind?: number },
    context?: TraceContext,
  ): TraceSpan;
}
