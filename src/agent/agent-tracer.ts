import type { Context, Span, Tracer } from '@opentelemetry/api';

/** An OpenTelemetry tracer (`trace.getTracer('my-app')`); `@opentelemetry/api` is an optional peer. */
export type AgentTracer = Tracer;
export type { Context as TraceContext, Span as TraceSpan };
