// Review of issue 7: the testing models are ChatModels and honour CallOptions like a provider does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions, ChatModel, ChatRequest } from '../../src/index.ts';
import { recordModel, replayModel, scriptedModel } from '../../src/testing/index.ts';

const toolTurn = { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] };
const types = async (model: ChatModel, call?: CallOptions) =>
  (await lastValueFrom(model.stream({ messages: 'hi' }, call).pipe(toArray()))).map((e) => e.type);

describe('recordModel and replayModel honour CallOptions', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const tempFile = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-record-call-'));
    dirs.push(dir);
    return join(dir, 'chat.jsonl');
  };

  it('recordModel passes the CallOptions to the recorded model', async () => {
    const seen: (CallOptions | undefined)[] = [];
    const inner = scriptedModel([toolTurn]);
    const spy: ChatModel = {
      ...inner,
      stream: (request: ChatRequest, call?: CallOptions) => {
        seen.push(call);
        return inner.stream(request, call);
      },
    };
    const call: CallOptions = { headers: { 'x-trace': '1' }, timeoutMs: 5_000, emitToolCallDeltas: true };
    const model = recordModel(spy, await tempFile());
    expect(await types(model, call)).toEqual(['tool-call-delta', 'tool-calls-ready', 'stream-completed']);
    expect(seen).toEqual([call]);
  });

  it('replayModel emits recorded tool-call deltas only when the call asks for them', async () => {
    const file = await tempFile();
    const recorder = recordModel(scriptedModel([toolTurn]), file);
    await types(recorder, { emitToolCallDeltas: true });

    const replay = replayModel(file, { speed: 0, loop: true });
    expect(await types(replay)).toEqual(['tool-calls-ready', 'stream-completed']);
    expect(await types(replay, { emitToolCallDeltas: true })).toEqual([
      'tool-call-delta',
      'tool-calls-ready',
      'stream-completed',
    ]);
  });

  it('an aborted signal stops a replay and complete() rejects with its reason', async () => {
    const file = await tempFile();
    await recordModel(scriptedModel([{ text: ['a', 'b'] }]), file).complete({ messages: 'hi' });
    const reason = new Error('stop');
    const replay = replayModel(file, { speed: 0 });
    await expect(replay.complete({ messages: 'hi' }, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
  });
});
