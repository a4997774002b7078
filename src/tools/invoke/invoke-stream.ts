import { Observable } from 'rxjs';
import type { ToolCall } from '../../core/index.ts';
import type { InvokeOptions } from '../invoke-options.ts';
import type { ToolInvocationEvent } from '../tool-invocation-event.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import { invokeTool } from './invoke-tool.ts';

/**
 * One tool call as a cold Observable: `progress` events (values of an Observable `execute` but the
 * last), then one `outcome`. Each subscription runs the call once, with its own AbortController
 * (aborted on unsubscribe or by `options.signal`). The call still writes its audit records after the
 * subscriber left; an audit failure then goes to `reportError`, never dropped.
 */
export function invokeStream(
  env: InvokeEnvironment,
  call: ToolCall,
  options: Omit<InvokeOptions, 'onProgress'>,
  reportError: (error: unknown, call: ToolCall) => void,
): Observable<ToolInvocationEvent> {
  return new Observable<ToolInvocationEvent>((subscriber) => {
    const controller = new AbortController();
    const outer = options.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const onProgress = (value: unknown) =>
      subscriber.next({ type: 'progress', toolCallId: call.id, name: call.name, value });
    invokeTool(env, call, { ...options, signal: controller.signal, onProgress }).then(
      (outcome) => {
        subscriber.next({ type: 'outcome', outcome });
        subscriber.complete();
      },
      (error: unknown) => {
        if (!subscriber.closed) subscriber.error(error);
        else reportError(error, call);
      },
    );
    return () => {
      outer?.removeEventListener('abort', forward);
      controller.abort();
    };
  });
}
