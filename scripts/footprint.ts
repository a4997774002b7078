/**
 * What a user pays to adopt rxagent, beside the AI SDK built the same way (`npm run footprint`):
 * - the minified + gzipped size of a browser bundle (esbuild, platform browser, ESM) of OpenAI
 *   streaming alone, and of an agent with one zod tool;
 * - the `tsc --noEmit` time of a small strict consumer project using an agent with five zod tools.
 * rxagent is measured as a consumer sees it: its built `dist/` types and its package exports (run
 * `npm run build` first; this script does it when dist/ is missing).
 */
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, '.bench-out', 'footprint');

const tool = (i: number, lib: 'rxagent' | 'ai') =>
  lib === 'rxagent'
    ? `defineTool({ name: 'tool_${i}', description: 'Tool ${i}.', input: z.object({ city: z.string(), days: z.number().int().max(${i + 7}) }), execute: ({ city, days }) => ({ city, days, n: ${i} }) })`
    : `tool({ description: 'Tool ${i}.', inputSchema: z.object({ city: z.string(), days: z.number().int().max(${i + 7}) }), execute: async ({ city, days }) => ({ city, days, n: ${i} }) })`;

const programs = {
  'rxagent: openai streaming': `
    import { openai } from 'rxagent/openai';
    openai('gpt-4o-mini', { apiKey: 'sk' }).stream({ messages: 'Hi' }).subscribe((e) => { if (e.type === 'text-delta') console.log(e.text); });`,
  'AI SDK: streamText + @ai-sdk/openai': `
    import { streamText } from 'ai';
    import { createOpenAI } from '@ai-sdk/openai';
    const result = streamText({ model: createOpenAI({ apiKey: 'sk' }).chat('gpt-4o-mini'), prompt: 'Hi' });
    for await (const text of result.textStream) console.log(text);`,
  'rxagent: Agent + openai + one zod/mini tool': `
    import { Agent, defineTool } from 'rxagent';
    import { openai } from 'rxagent/openai';
    import * as z from 'zod/mini';
    const agent = new Agent({ model: openai('gpt-4o-mini', { apiKey: 'sk' }), tools: [defineTool({ name: 'tool_0', description: 'Tool 0.',
      input: z.object({ city: z.string(), days: z.number().check(z.int(), z.maximum(7)) }), execute: ({ city, days }) => ({ city, days }) })] });
    agent.run('Weather?').subscribe((e) => { if (e.type === 'text-delta') console.log(e.text); });`,
  'rxagent: Agent + openai + one zod tool': `
    import { Agent, defineTool } from 'rxagent';
    import { openai } from 'rxagent/openai';
    import { z } from 'zod';
    const agent = new Agent({ model: openai('gpt-4o-mini', { apiKey: 'sk' }), tools: [${tool(0, 'rxagent')}] });
    agent.run('Weather?').subscribe((e) => { if (e.type === 'text-delta') console.log(e.text); });`,
  'AI SDK: streamText + @ai-sdk/openai + one zod tool': `
    import { stepCountIs, streamText, tool } from 'ai';
    import { createOpenAI } from '@ai-sdk/openai';
    import { z } from 'zod';
    const result = streamText({ model: createOpenAI({ apiKey: 'sk' }).chat('gpt-4o-mini'), prompt: 'Weather?',
      tools: { tool_0: ${tool(0, 'ai')} }, stopWhen: stepCountIs(5) });
    for await (const text of result.textStream) console.log(text);`,
} as const;

async function bundleSize(source: string): Promise<{ min: number; gzip: number }> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts', sourcefile: 'program.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]!.contents;
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const consumers = {
  'no library (tsc start-up alone)': `export const text: string = 'Weather?';`,
  rxagent: `
    import { Agent, defineTool } from 'rxagent';
    import { openai } from 'rxagent/openai';
    import { z } from 'zod';
    const agent = new Agent({ model: openai('gpt-4o-mini'), tools: [${[0, 1, 2, 3, 4].map((i) => tool(i, 'rxagent')).join(', ')}] });
    const result = await agent.chat('Weather?');
    export const text: string = result.text;`,
  'AI SDK': `
    import { generateText, stepCountIs, tool } from 'ai';
    import { openai } from '@ai-sdk/openai';
    import { z } from 'zod';
    const result = await generateText({ model: openai('gpt-4o-mini'), prompt: 'Weather?', stopWhen: stepCountIs(5),
      tools: { ${[0, 1, 2, 3, 4].map((i) => `tool_${i}: ${tool(i, 'ai')}`).join(', ')} } });
    export const text: string = result.text;`,
} as const;

/** Median wall time of `tsc --noEmit` over a one-file strict project, `runs` times. */
async function tscTime(name: string, source: string, runs = 5): Promise<number> {
  const dir = join(out, name.replace(/\W+/g, '-'));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'consumer.ts'), source);
  const tsconfig = {
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      target: 'es2023',
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
    files: ['consumer.ts'],
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    execFileSync(process.execPath, [tsc, '-p', dir], { stdio: 'inherit' });
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

if (!existsSync(join(root, 'dist', 'index.d.ts')))
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
await rm(out, { recursive: true, force: true });
console.log('| browser bundle (esbuild --minify, platform browser) | minified | min + gzip |\n|---|---|---|');
for (const [name, source] of Object.entries(programs)) {
  const { min, gzip } = await bundleSize(source);
  console.log(`| ${name} | ${(min / 1024).toFixed(1)} KiB | ${(gzip / 1024).toFixed(1)} KiB |`);
}
console.log('\n| consumer project, five zod tools | tsc --noEmit (median of 5) |\n|---|---|');
for (const [name, source] of Object.entries(consumers)) {
  console.log(`| ${name} | ${((await tscTime(name, source)) / 1000).toFixed(2)} s |`);
}
