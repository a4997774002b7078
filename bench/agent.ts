// Agent loop overhead: rxagent's Agent against the Vercel AI SDK's streamText with tools and
// stopWhen, on the same scripted three-step conversation (tool call, tool call, five-delta answer),
// in process, no HTTP. Reports ms per run for each, the ratio, and rxagent's overhead per step with
// the scripted model's own cost subtracted (target < 0.2 ms).
// Run: node --conditions=rxagent-source bench/agent.ts   (BENCH_AGENT_RUNS, BENCH_AGENT_ROUNDS)
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

async function msPerRun(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < runs; index++) await run();
  return (performance.now() - started) / runs;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

for (const run of [rxagentRun, aiSdkRun, modelOnly]) for (let index = 0; index < 200; index++) await run();
const samples = { rxagent: [] as number[], aiSdk: [] as number[], model: [] as number[] };
for (let round = 0; round < rounds; round++) {
  samples.rxagent.push(await msPerRun(rxagentRun));
  samples.aiSdk.push(await msPerRun(aiSdkRun));
  samples.model.push(await msPerRun(modelOnly));
}
const rx = median(samples.rxagent);
const ai = median(samples.aiSdk);
const perStep = (rx - median(samples.model)) / 3;
console.log(`${runs} runs × ${rounds} rounds, medians; three steps per run (2 tool calls, 5 text deltas)`);
console.log(`rxagent Agent.chat           ${rx.toFixed(3)} ms/run`);
console.log(
  `AI SDK streamText + stopWhen ${ai.toFixed(3)} ms/run   (AI SDK ÷ rxagent = ${(ai / rx).toFixed(2)}×)`,
);
console.log(
  `rxagent overhead per step, scripted model excluded: ${perStep.toFixed(3)} ms ` +
    `(target < 0.2 ms: ${perStep < 0.2 ? 'met' : 'MISSED'})`,
);
