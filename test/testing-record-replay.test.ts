import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, Observable, take, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChatModel, RxAgentError, type StreamEvent } from '../src/index.ts';
import { createChatModel } from '../src/providers/shared/index.ts';
import { recordModel } from '../src/testing/record-model.ts';
import { replayModel } from '../src/testing/replay-model.ts';

const capabilities = { streaming: true, tools: true, vision: false, json: true, reasoning: false } as const;

/** A model whose n-th turn streams "turn n" in two deltas, a few ms apart. */
function countingModel(): ChatModel {
  let turn = 0;
  return createChatModel({
    provider: 'fake',
    modelId: 'counting-1',
    capabilities,
    stream: () =>
      new Observable<StreamEvent>((subscriber) => {
        const n = turn++;
        const timers = [
          setTimeout(() => subscriber.next({ type: 'text-delta', text: 'turn ' }), 5),
          setTimeout(() => subscriber.next({ type: 'text-delta', text: String(n) }), 25),
          setTimeout(() => {
            subscriber.next({
              type: 'stream-completed',
              response: {
                message: { role: 'assistant', content: `turn ${n}` },
                text: `turn ${n}`,
                toolCalls: [],
                finishReason: 'stop',
                usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
                provider: 'fake',
                model: 'counting-1',
                timing: { firstTokenMs: 5, totalMs: 30 },
              },
            });
            subscriber.complete();
          }, 30),
        ];
        return () => timers.forEach(clearTimeout);
      }),
  });
}

describe('recordModel and replayModel', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-rec-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('record completed turns and replay them in order with their timing', async () => {
    const file = join(dir, 'rec.jsonl');
    const recorder = recordModel(countingModel(), file);
    expect((await recorder.complete({ messages: 'a' })).text).toBe('turn 0');
    expect((await recorder.complete({ messages: 'b' })).text).toBe('turn 1');
    // a cancelled turn is not recorded
    await lastValueFrom(recorder.stream({ messages: 'c' }).pipe(take(1), toArray()));

    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      rxagent: 'recording',
      provider: 'fake',
      modelId: 'counting-1',
    });
    expect(lines).toHaveLength(1 + 3 + 3);

    const replay = replayModel(file);
    expect(replay).toMatchObject({ provider: 'fake', modelId: 'counting-1', capabilities });
    const started = performance.now();
    const first = await lastValueFrom(replay.stream({ messages: 'a' }).pipe(toArray()));
    expect(performance.now() - started).toBeGreaterThanOrEqual(20); // recorded timing kept
    expect(first.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'stream-completed']);
    expect((await replay.complete({ messages: 'b' })).text).toBe('turn 1');
    const exhausted = await replay.complete({ messages: 'c' }).catch((e: unknown) => e);
    expect(RxAgentError.is(exhausted) && exhausted.code).toBe('replay_exhausted');
  });

  it('appends to an existing recording and loops on request', async () => {
    const file = join(dir, 'rec.jsonl');
    await recordModel(countingModel(), file).complete({ messages: 'a' });
    await recordModel(countingModel(), file).complete({ messages: 'a' });
    const turns = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => (JSON.parse(line) as { turn: number }).turn);
    expect(turns).toEqual([0, 0, 0, 1, 1, 1]);
    const replay = replayModel(file, { speed: 0, loop: true });
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await replay.complete({ messages: 'x' })).text);
    expect(texts).toEqual(['turn 0', 'turn 0', 'turn 0']);
  });

  it('refuses a file that is not a recording', async () => {
    const file = join(dir, 'bad.jsonl');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, '{"hello":1}\n'));
    expect(() => replayModel(file)).toThrow(/not an rxagent recording/);
  });
});
