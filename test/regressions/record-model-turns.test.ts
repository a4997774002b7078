import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordModel, replayModel, scriptedModel } from '../../src/testing/index.ts';

describe('recordModel (regressions)', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('gives streams that complete together their own turns, so each replays as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-record-'));
    dirs.push(dir);
    const file = join(dir, 'chat.jsonl');
    const model = recordModel(scriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]), file);
    await Promise.all([model.complete({ messages: 'a' }), model.complete({ messages: 'b' })]);
    await model.complete({ messages: 'c' });

    const replay = replayModel(file, { speed: 0 });
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push((await replay.complete({ messages: 'x' })).text);
    expect(texts.sort()).toEqual(['one', 'three', 'two']);
  });
});
