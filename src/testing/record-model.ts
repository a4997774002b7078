import { nodeBuiltin } from '../core/node-builtin.ts';
import { asyncScheduler, concat, defer, ignoreElements, type Observable, tap } from 'rxjs';
import type { CallOptions, ChatModel, ChatRequest, StreamEvent } from '../core/index.ts';
import { createChatModel } from '../providers/shared/index.ts';
import { parseRecording, type RecordedEvent, type RecordingHeader } from './recording.ts';
import { toolCallDeltasFor } from './tool-call-deltas.ts';

const nodeFsp = () => nodeBuiltin('node:fs/promises', 'recordModel');

/**
 * Wraps a model so every completed stream is appended to `file` (JSON Lines), for `replayModel`
 * to play back offline. A turn is written only once it completed: a failed or cancelled stream
 * leaves the file as it was. `CallOptions` reach the wrapped model; tool-call deltas are always
 * recorded (so a replay can give them to a call that asks) and passed on only when the call asks.
 * @example const model = recordModel(openai('gpt-4o-mini'), 'fixtures/chat.jsonl');
 */
export function recordModel(model: ChatModel, file: string): ChatModel {
  let nextTurn: Promise<number> | undefined;
  // Claims are chained synchronously: streams completing together must not read the same number.
  const claimTurn = (): Promise<number> => {
    const claimed = (nextTurn ??= nodeFsp()
      .readFile(file, 'utf8')
      .then(
        (text) => parseRecording(text, file).turns.length,
        async () => {
          const header: RecordingHeader = {
            rxagent: 'recording',
            version: 1,
            provider: model.provider,
            modelId: model.modelId,
            capabilities: model.capabilities,
          };
          await nodeFsp().writeFile(file, `${JSON.stringify(header)}\n`);
          return 0;
        },
      ));
    nextTurn = claimed.then((turn) => turn + 1);
    // A failed claim (an unreadable file) fails later claims too, through their own await.
    nextTurn.catch(() => undefined);
    return claimed;
  };

  const stream = (request: ChatRequest, call?: CallOptions): Observable<StreamEvent> =>
    defer(() => {
      const startedAt = asyncScheduler.now();
      const seen: Omit<RecordedEvent, 'turn'>[] = [];
      const save = defer(async () => {
        const turn = await claimTurn();
        const lines = seen.map(({ atMs, event }) =>
          JSON.stringify({ turn, atMs, event } satisfies RecordedEvent),
        );
        await nodeFsp().appendFile(file, `${lines.join('\n')}\n`);
      });
      const live = model
        .stream(request, { ...call, emitToolCallDeltas: true })
        .pipe(tap((event) => seen.push({ atMs: asyncScheduler.now() - startedAt, event })));
      // The write runs after the source completes and before the subscriber sees completion.
      return concat(live, save.pipe(ignoreElements())).pipe(toolCallDeltasFor(call));
    });

  return createChatModel({
    provider: model.provider,
    modelId: model.modelId,
    capabilities: model.capabilities,
    stream,
  });
}
