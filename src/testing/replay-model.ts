import { nodeBuiltin } from '../core/node-builtin.ts';
import { defer, from, type Observable, of, throwError, timer } from 'rxjs';
import { concatMap, map } from 'rxjs/operators';
import {
  type CallOptions,
  type ChatModel,
  type ChatRequest,
  RxAgentError,
  type StreamEvent,
} from '../core/index.ts';
import { createChatModel } from '../providers/shared/index.ts';
import { parseRecording } from './recording.ts';
import { toolCallDeltasFor } from './tool-call-deltas.ts';

const nodeFs = () => nodeBuiltin('node:fs', 'replayModel');

/** Options of `replayModel`. */
export interface ReplayModelOptions {
  /** Playback speed: 1 keeps the recorded timing, 2 is twice as fast, 0 emits without delay. @default 1 */
  speed?: number;
  /** Start again at the first turn once every turn was played. @default false */
  loop?: boolean;
}

/**
 * A `ChatModel` that plays back a file written by `recordModel`: each `stream()` subscription
 * replays the next recorded turn, with its recorded timing. Offline, deterministic, cold. Recorded
 * tool-call deltas are emitted only when the call asks (`CallOptions.emitToolCallDeltas`); its
 * `signal` stops the replay.
 * @example const model = replayModel('fixtures/chat.jsonl', { speed: 0 });
 */
export function replayModel(file: string, options: ReplayModelOptions = {}): ChatModel {
  const { header, turns } = parseRecording(nodeFs().readFileSync(file, 'utf8'), file);
  const speed = options.speed ?? 1;
  let next = 0;

  const stream = (_request: ChatRequest, call?: CallOptions): Observable<StreamEvent> =>
    defer(() => {
      if (next >= turns.length && options.loop) next = 0;
      const turn = turns[next++];
      if (!turn) {
        return throwError(
          () =>
            new RxAgentError(
              `${file} has no recorded turn ${next - 1} (${turns.length} recorded)`,
              'replay_exhausted',
            ),
        );
      }
      if (speed === 0) return from(turn.map((recorded) => recorded.event));
      let previous = 0;
      return from(turn).pipe(
        concatMap((recorded) => {
          const wait = Math.max(0, (recorded.atMs - previous) / speed);
          previous = recorded.atMs;
          return wait === 0 ? of(recorded) : timer(wait).pipe(map(() => recorded));
        }),
        map((recorded) => recorded.event),
      );
    }).pipe(toolCallDeltasFor(call));

  return createChatModel({
    provider: header.provider,
    modelId: header.modelId,
    capabilities: header.capabilities,
    stream,
  });
}
