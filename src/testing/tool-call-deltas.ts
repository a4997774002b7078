import { filter, type MonoTypeOperatorFunction } from 'rxjs';
import type { CallOptions, StreamEvent } from '../core/index.ts';

/**
 * Drops `tool-call-delta` events unless the call asked for them (`CallOptions.emitToolCallDeltas`),
 * as every provider does: for models that play back streams recorded with the deltas in.
 * @param call the call's options
 * @example events$.pipe(toolCallDeltasFor(call))
 */
export function toolCallDeltasFor(call: CallOptions | undefined): MonoTypeOperatorFunction<StreamEvent> {
  if (call?.emitToolCallDeltas === true) return (source) => source;
  return filter((event) => event.type !== 'tool-call-delta');
}
