// Agent loop overhead: rxagent's Agent against the Vercel AI SDK's streamText with tools and
// stopWhen, on the same scripted three-step conversation (tool call, tool call, five-delta answer),
// in process, no HTTP. Reports ms per run for each, the ratio, and rxagent's overhead per step with
// the scripted model's own cost subtracted (target < 0.2 ms).
// Run: npx node --conditions=rxagent-source bench/agent.ts   (BENCH_AGENT_RUNS, BENCH_AGENT_ROUNDS)
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { lastValueFrom } from 'rxjs';
import { z } from 'zod';
import { Agent } from '../src/agent/index.ts';
import { defineTool } from '../src/tools/index.ts';
import { type ScriptedTurn, scriptedModel } from '../src/testing/index.ts';

const runs = Number(process.env.BENCH_AGENT_RUNS ?? 1000);
const rounds = Number(process.env.BENCH_AGENT_ROUNDS ?? 5);
const answer = ['It is ', '18 °C ', 'in Oslo ', 'and 24 °C ', 'in Rome.'];
const cities = ['Oslo', 'Rome'];
const input = z.object({ city: z.string().min(1) });
const weather = ({ city }: { city: string }) => ({ city, tempC: city === 'Rome' ? 24 : 18 });

// rxagent
const turns: ScriptedTurn[] = [
  ...cities.map((city, index) => ({
    toolCalls: [{ id: `call_${index}`, name: 'get_weather', arguments: { city } }],
  })),
  { text: answer },
];
const model = scriptedModel(turns, { loop: true });
const agent = new Agent({
  model,
  tools: [defineTool({ name: 'get_weather', description: 'Weather.', input, execute: weather })],
});
const rxagentRun = async () => {
  const result = await agent.chat('Weather in Oslo and Rome?');
  if (result.text !== answer.join('')) throw new Error(`rxagent answered ${result.text}`);
};
const modelOnly = async () => {
  for (let step = 0; step < 3; step++) await lastValueFrom(model.stream({ messages: 'x' }));
};

// AI SDK
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
function aiSdkTurn(step: number): LanguageModelV4StreamPart[] {
  const city = cities[step];
  if (city !== undefined) {
    return [
      { type: 'stream-start', warnings: [] },
      {
        type: 'tool-call',
        toolCallId: `call_${step}`,
        toolName: 'get_weather',
        input: JSON.stringify({ city }),
      },
      { type: 'finish', usage, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ];
  }
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...answer.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
  ];
}
const aiModel = new MockLanguageModelV4({
  doStream: async (options) => {
    const step = options.prompt.filter((message) => message.role === 'tool').length;
    return { stream: convertArrayToReadableStream(aiSdkTurn(step)) };
  },
});
const aiTools = { get_weather: tool({ description: 'Weather.', inputSchema: input, execute: weather }) };
const aiSdkRun = async () => {
  const result = streamText({
    model: aiModel,
    tools: aiTools,
    stopWhen: stepCountIs(10),
    prompt: 'Weather in Oslo and Rome?',
  });
  for await (const part of result.fullStream) void part;
  const text = await result.text;
  if (text !== answer.join('')) throw new Error(`AI SDK answered ${text}`);
  aiModel.doStreamCalls.length = 0;
};

/** Wall-clock and CPU milliseconds per run (CPU time: this process's user + system time, which a
 * machine shared with other work does not inflate the way it inflates wall-clock time). */
async function perRun(run: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < runs; index++) await run();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - started) / runs, cpu: (used.user + used.system) / 1000 / runs };
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

for (const run of [rxagentRun, aiSdkRun, modelOnly]) for (let index = 0; index < 200; index++) await run();
const runners = { rxagent: rxagentRun, aiSdk: aiSdkRun, model: modelOnly };
type Sample = { wall: number; cpu: number };
const samples: Record<keyof typeof runners, Sample[]> = { rxagent: [], aiSdk: [], model: [] };
for (let round = 0; round < rounds; round++) {
  for (const name of ['rxagent', 'aiSdk', 'model'] as const) samples[name].push(await perRun(runners[name]));
}
const stat = (name: keyof typeof samples, kind: 'wall' | 'cpu') =>
  median(samples[name].map((sample) => sample[kind]));
console.log(`${runs} runs × ${rounds} rounds, medians; three steps per run (2 tool calls, 5 text deltas)`);
for (const kind of ['wall', 'cpu'] as const) {
  const rx = stat('rxagent', kind);
  const ai = stat('aiSdk', kind);
  const perStep = (rx - stat('model', kind)) / 3;
  console.log(
    `${kind.padEnd(4)}  rxagent Agent.chat ${rx.toFixed(3)} ms/run · AI SDK streamText + stopWhen ${ai.toFixed(3)} ms/run ` +
      `(AI SDK ÷ rxagent ${(ai / rx).toFixed(2)}×) · rxagent overhead per step, scripted model excluded ${perStep.toFixed(3)} ms` +
      (kind === 'cpu' ? ` (target < 0.2 ms: ${perStep < 0.2 ? 'met' : 'MISSED'})` : ''),
  );
}
