import type { StreamOutcome } from './runner-harness.ts';

/** The part of a chat.completion.chunk the runners read; the openai SDK's parsed chunks match it. */
export interface OpenAIChunkLike {
  choices: {
    delta: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
  }[];
}

/** Tool calls being assembled from their fragments, by index. */
export type PendingCalls = { id: string; name: string; args: string }[];

/**
 * Counts one chunk's text and tool-call fragments into `out` and `calls`: what the raw loop and
 * the openai SDK runner both do with the (identically shaped) chunks they get.
 */
export function addOpenAIChunk(chunk: OpenAIChunkLike, out: StreamOutcome, calls: PendingCalls): void {
  const choice = chunk.choices[0];
  if (!choice) return;
  const { content, tool_calls } = choice.delta;
  if (content) {
    out.firstDeltaAt ??= performance.now();
    out.deltas++;
    out.text += content;
  }
  if (tool_calls) {
    for (const tc of tool_calls) {
      let call = calls[tc.index];
      if (!call) {
        call = { id: '', name: '', args: '' };
        calls[tc.index] = call;
      }
      if (tc.id) call.id = tc.id;
      if (tc.function?.name) call.name = tc.function.name;
      const fragment = tc.function?.arguments;
      if (fragment) {
        out.firstDeltaAt ??= performance.now();
        out.deltas++;
        call.args += fragment;
      }
    }
  }
  if (choice.finish_reason) out.finishReason = choice.finish_reason;
}

/** The assembled calls, each one's arguments parsed once. */
export function parsedCalls(calls: PendingCalls): StreamOutcome['toolCalls'] {
  return calls.map((c) => ({ id: c.id, name: c.name, args: c.args.trim() ? JSON.parse(c.args) : {} }));
}
