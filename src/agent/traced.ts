import { Observable } from 'rxjs';
import type { AgentTracer, TraceContext, TraceSpan } from './agent-tracer.ts';
import { contextWithSpan } from './trace-context.ts';

// Numeric values of `SpanStatusCode` (a runtime enum of the optional peer, so not imported).
const STATUS_OK = 1;
const STATUS_ERROR = 2;

/** Where a traced piece of the run is: its span (if tracing) and the context for child spans. */
export interface TraceScope {
  span: TraceSpan | undefined;
  context: TraceContext | undefined;
}

/** A span to open: name, attributes, parent. */
export interface SpanSpec {
  name: string;
  attributes: Record<string, string | number | boolean>;
  parent: TraceContext | undefined;
}

/**
 * `body` inside a span opened on subscribe and closed on complete, error (status error, exception
 * recorded) or unsubscribe (status error, `error.type` `cancelled`). Without a tracer, `body` as is.
 */
export function traced<T>(
  tracer: AgentTracer | undefined,
  spec: SpanSpec,
  body: (scope: TraceScope) => Observable<T>,
): Observable<T> {
  if (!tracer) return body({ span: undefined, context: undefined });
  return new Observable<T>((subscriber) => {
    const span = tracer.startSpan(spec.name, { attributes: spec.attributes }, spec.parent);
    let ended = false;
    const end = (status: { code: number; message?: string }) => {
      if (ended) return;
      ended = true;
      span.setStatus(status);
      span.end();
    };
    const subscription = body({ span, context: contextWithSpan(span, spec.parent) }).subscribe({
      next: (value) => subscriber.next(value),
      error: (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        span.recordException(error instanceof Error ? error : message);
        span.setAttribute('error.type', error instanceof Error ? error.name : 'error');
        end({ code: STATUS_ERROR, message });
        subscriber.error(error);
      },
      complete: () => {
        end({ code: STATUS_OK });
        subscriber.complete();
      },
    });
    return () => {
      subscription.unsubscribe();
      if (!ended) span.setAttribute('error.type', 'cancelled');
      end({ code: STATUS_ERROR, message: 'cancelled' });
    };
  });
}
