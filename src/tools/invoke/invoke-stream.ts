import { Observable } from 'rxjs';
import type { ToolCall } from '../../core/index.ts';
import { linkAbort } from '../../core/linked-abort.ts';
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
    const link = linkAbort(options.signal);
    let settled = false;
    const onProgress = (value: unknown) =>
      subscriber.next({ type: 'progress', toolCallId: call.id, name: call.name, value });
    invokeTool(env, call, { ...options, signal: link.signal, onProgress }).then(
      (outcome) => {
        settled = true;
        subscriber.next({ type: 'outcome', outcome });
        subscriber.complete();
      },
      (error: unknown) => {
        settled = true;
        if (!subscriber.closed) subscriber.error(error);
        else reportError(error, call);
      },
    );
    return () => link.release(!settled);
  });
}
