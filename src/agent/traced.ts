import { Observable } from 'rxjs';
import { activeTraceContext, withActiveContext } from './active-context.ts';
import type { AgentTracer, TraceAttributeValue, TraceContext, TraceSpan } from './agent-tracer.ts';
import { contextWithSpan } from './trace-context.ts';

// Numeric values of `SpanStatusCode` and `SpanKind` (runtime enums of the optional peer, so not imported).
const STATUS_OK = 1;
const STATUS_ERROR = 2;
const SPAN_KINDS = { internal: 0, client: 2 } as const;

/** Where a traced piece of the run is: its span (if tracing) and the context for child spans. */
export interface TraceScope {
  span: TraceSpan | undefined;
  context: TraceContext | undefined;
  /**
   * Ends the span with an error status (and `error.type`) although its stream completes: a tool
   * call whose outcome is not ok is such a failure.
   */
  fail(errorType: string, message: string): void;
}

/** A span to open: name, kind, attributes, parent (the caller's active context when absent). */
export interface SpanSpec {
  name: string;
  /** @default 'internal' */
  kind?: keyof typeof SPAN_KINDS;
  attributes: Record<string, TraceAttributeValue>;
  parent: TraceContext | undefined;
}

const untraced: TraceScope = { span: undefined, context: undefined, fail: () => undefined };

/**
 * `body` inside a span opened on subscribe and closed on complete, error (status error, exception
 * recorded) or unsubscribe (status error, `error.type` `cancelled`). The span is the active one
 * while `body` is subscribed, so the work it starts (a tool's `execute`, a provider's `fetch`) and
 * the spans that work opens are its children. What `body` emits is delivered under the context
 * that was active outside, so the work that follows (the next step, the session append, the
 * caller's handlers) never runs under a span that has ended. Without a tracer, `body` as is.
 */
export function traced<T>(
  tracer: AgentTracer | undefined,
  spec: SpanSpec,
  body: (scope: TraceScope) => Observable<T>,
): Observable<T> {
  if (!tracer) return body(untraced);
  return new Observable<T>((subscriber) => {
    const outside = activeTraceContext();
    const parent = spec.parent ?? outside;
    // Whatever called back from inside the body (a tool's promise, a provider's stream) hands its
    // values on under the outside context again.
    const outward = (deliver: () => void) => (outside ? withActiveContext(outside, deliver) : deliver());
    const span = tracer.startSpan(
      spec.name,
      { attributes: spec.attributes, kind: SPAN_KINDS[spec.kind ?? 'internal'] },
      parent,
    );
    let ended = false;
    let failure: { code: number; message: string } | undefined;
    const end = (status: { code: number; message?: string }) => {
      if (ended) return;
      ended = true;
      span.setStatus(status);
      span.end();
    };
    const context = contextWithSpan(span, parent);
    const scope: TraceScope = {
      span,
      context,
      fail: (errorType, message) => {
        span.setAttribute('error.type', errorType);
        failure = { code: STATUS_ERROR, message };
      },
    };
    const subscription = withActiveContext(context, () =>
      body(scope).subscribe({
        next: (value) => outward(() => subscriber.next(value)),
        error: (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          span.recordException(error instanceof Error ? error : message);
          span.setAttribute('error.type', error instanceof Error ? error.name : 'error');
          end({ code: STATUS_ERROR, message });
          outward(() => subscriber.error(error));
        },
        complete: () => {
          end(failure ?? { code: STATUS_OK });
          outward(() => subscriber.complete());
        },
      }),
    );
    return () => {
      subscription.unsubscribe();
      if (!ended) span.setAttribute('error.type', 'cancelled');
      end({ code: STATUS_ERROR, message: 'cancelled' });
    };
  });
}
