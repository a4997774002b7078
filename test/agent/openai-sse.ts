/** One scripted OpenAI turn: text pieces and/or tool calls (arguments as raw JSON text). */
export interface OpenAITurn {
  text?: readonly string[];
  toolCalls?: readonly { id: string; name: string; arguments: string }[];
  usage?: { input: number; output: number };
}

const frame = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** The SSE frames of one turn of OpenAI's chat completions stream, ending with `data: [DONE]`. */
export function openaiFrames(turn: OpenAITurn, id = 'chatcmpl-1'): string[] {
  const chunk = (delta: unknown, finish: string | null = null) =>
    frame({
      id,
      object: 'chat.completion.chunk',
      created: 1_727_300_000,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, delta, finish_reason: finish }],
      usage: null,
    });
  const frames = [chunk({ role: 'assistant', content: '' })];
  for (const text of turn.text ?? []) frames.push(chunk({ content: text }));
  (turn.toolCalls ?? []).forEach((call, index) => {
    frames.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] }),
    );
  });
  frames.push(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  const usage = turn.usage ?? { input: 10, output: 5 };
  frames.push(
    frame({
      id,
      object: 'chat.completion.chunk',
      created: 1_727_300_000,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    }),
    frame('[DONE]'),
  );
  return frames;
}
