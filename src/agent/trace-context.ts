import type { TraceContext, TraceSpan } from './agent-tracer.ts';

// The key `@opentelemetry/api` keeps the active span under (`createContextKey` is `Symbol.for`), so
// parent spans link without a runtime import of the optional peer.
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

function contextOf(values: ReadonlyMap<symbol, unknown>): TraceContext {
  return {
    getValue: (key) => values.get(key),
    setValue: (key, value) => contextOf(new Map(values).set(key, value)),
    deleteValue: (key) => {
      const next = new Map(values);
      next.delete(key);
      return contextOf(next);
    },
  };
}

/** A trace context whose active span is `span`, for starting its child spans. */
export function contextWithSpan(span: TraceSpan, parent?: TraceContext): TraceContext {
  return parent ? parent.setValue(SPAN_KEY, span) : contextOf(new Map([[SPAN_KEY, span]]));
}
