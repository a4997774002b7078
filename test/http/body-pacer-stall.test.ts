// Regression (left from issue 15's review): a `BodyPacer` (what useChat's and AG-UI's responses
// pace a run with) ignored `toSSEResponse`'s `stallMs` and, when its own 30 s ran out, ended the
// events with an `event: error` frame queued behind the unread ones instead of ending the body:
// a client that stopped reading was never cut off. One mechanism now, the pacer's, for both.
import { defer, interval, map, range } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { RxAgentError, SlowConsumerError } from '../../src/core/index.ts';
import { BodyPacer, resumableEvents, type SequencedEvent, toSSEResponse } from '../../src/http/index.ts';

const EVENTS = 200;
const PAD = 'x'.repeat(4_096);

/** A run's events, resumable after an id: each about 4 KiB. */
const run = () =>
  resumableEvents((after) =>
    defer(() =>
      range(
        after === undefined ? 0 : Number(after) + 1,
        EVENTS - (after === undefined ? 0 : Number(after) + 1),
      ),
    ).pipe(
      map((i): SequencedEvent => ({ id: String(i), event: { type: 'text-delta', text: PAD } as AgentEvent })),
    ),
  );

/** Reads the whole body: the `id:`s that came, and how it ended. */
async function readAll(body: ReadableStream<Uint8Array>): Promise<{ ids: number; error?: unknown }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { ids: text.match(/^id:/gm)?.length ?? 0, error };
  }
  return { ids: text.match(/^id:/gm)?.length ?? 0 };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a body left unread behind a BodyPacer', () => {
  it("ends with SlowConsumerError after toSSEResponse's stallMs", async () => {
    const pacer = new BodyPacer();
    const response = toSSEResponse(pacer.pace(run()).pipe(map((event) => event)), {
      pacer,
      pauseBytes: 16_384,
      stallMs: 100,
      heartbeatMs: 0,
    });
    await wait(400);
    const { ids, error } = await readAll(response.body!);
    expect(error).toBeInstanceOf(SlowConsumerError);
    expect((error as SlowConsumerError).limitBytes).toBe(16_384);
    expect(ids).toBeLessThan(EVENTS);
  });

  it('after its own stallMs when it was made with one', async () => {
    const pacer = new BodyPacer(100);
    const response = toSSEResponse(pacer.pace(run()), {
      pacer,
      pauseBytes: 16_384,
      stallMs: 60_000,
      heartbeatMs: 0,
    });
    await wait(400);
    const { error } = await readAll(response.body!);
    expect(error).toBeInstanceOf(SlowConsumerError);
  });

  it('a client that keeps reading gets every event, however long it takes in all', async () => {
    const pacer = new BodyPacer();
    const response = toSSEResponse(pacer.pace(run()), {
      pacer,
      pauseBytes: 16_384,
      stallMs: 100,
      heartbeatMs: 0,
    });
    const reader = response.body!.getReader();
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      await wait(1);
    }
    expect(bytes).toBeGreaterThan(EVENTS * PAD.length);
  });

  it('resumable events without a pacer: the same cut-off', async () => {
    const response = toSSEResponse(run(), { pauseBytes: 16_384, stallMs: 100, heartbeatMs: 0 });
    await wait(400);
    const { error } = await readAll(response.body!);
    expect(error).toBeInstanceOf(SlowConsumerError);
  });

  // The second review: the stall timer ran from the pause to the next half-drained body, so a
  // client reading steadily but slowly was cut off; it runs from the last read now.
  it('a client that reads slowly but steadily is not cut off', async () => {
    const pacer = new BodyPacer();
    const response = toSSEResponse(pacer.pace(run()), {
      pacer,
      pauseBytes: 16_384,
      stallMs: 200,
      heartbeatMs: 0,
    });
    const reader = response.body!.getReader();
    let events = 0;
    // An event (~4 KiB) every 80 ms: half of pauseBytes takes ~160-240 ms, past stallMs.
    while (events < 40) {
      const { done } = await reader.read();
      if (done) break;
      events += 1;
      await wait(80);
    }
    expect(events).toBe(40);
    await reader.cancel();
  });

  it('one pacer for two responses is refused', () => {
    const pacer = new BodyPacer();
    toSSEResponse(pacer.pace(run()), { pacer, heartbeatMs: 0 }).body?.cancel();
    expect(() => toSSEResponse(pacer.pace(run()), { pacer, heartbeatMs: 0 })).toThrow(RxAgentError);
  });

  it('a pacer given events it cannot resume: the body keeps its buffer limit', async () => {
    const pacer = new BodyPacer();
    const plain = interval(0).pipe(
      map((i): SequencedEvent => ({ id: String(i), event: { type: 'text-delta', text: PAD } as AgentEvent })),
    );
    expect(pacer.pacing).toBe(false);
    const response = toSSEResponse(pacer.pace(plain), { pacer, heartbeatMs: 0, maxReplayBytes: 65_536 });
    await wait(1_000);
    const { error } = await readAll(response.body!);
    expect(error).toBeInstanceOf(SlowConsumerError);
  });

  // The third review: the stall timer restarted on a pull, and a body is pulled only once read
  // below pauseBytes: behind one event larger than that, a client reading steadily saw no pull for
  // longer than stallMs and was cut off. A read is the queue shrinking now.
  it('a client reading steadily behind one event larger than pauseBytes is not cut off', async () => {
    const sized = resumableEvents((after) =>
      defer(() =>
        range(
          after === undefined ? 0 : Number(after) + 1,
          40 - (after === undefined ? 0 : Number(after) + 1),
        ),
      ).pipe(
        map((i): SequencedEvent => ({
          id: String(i),
          event: { type: 'text-delta', text: 'x'.repeat(i === 15 ? 256 * 1024 : 4_096) } as AgentEvent,
        })),
      ),
    );
    const pacer = new BodyPacer();
    const response = toSSEResponse(pacer.pace(sized), {
      pacer,
      pauseBytes: 65_536,
      stallMs: 300,
      heartbeatMs: 0,
    });
    const reader = response.body!.getReader();
    let frames = 0;
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      frames += 1;
      await wait(50);
    }
    expect(frames).toBeGreaterThanOrEqual(40);
  });
});
