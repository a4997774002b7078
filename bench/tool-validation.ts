// Cost of validating one typical tool call (5 fields) with the validator compiled once at registration.
// Run: npx node bench/tool-validation.ts
import * as z from 'zod';
import { ajvEngine } from '../src/tools/ajv-engine.ts';
import { compileArgumentsCheck } from '../src/tools/arguments-check.ts';
import { defineTool } from '../src/tools/define-tool.ts';
import { identityNameSet } from '../src/tools/identity-names.ts';
import type { AnyTool } from '../src/tools/tool.ts';
import { ToolRegistry } from '../src/tools/tool-registry.ts';

const args = { city: 'Oslo', days: 3, units: 'metric', detailed: true, tags: ['rain', 'wind'] };

const zodTool = defineTool({
  name: 'forecast',
  description: 'Weather forecast.',
  input: z.object({
    city: z.string().min(1),
    days: z.number().int().min(1).max(14),
    units: z.enum(['metric', 'imperial']),
    detailed: z.boolean(),
    tags: z.array(z.string()).max(10),
  }),
  execute: () => null,
});

const jsonTool = defineTool({
  name: 'forecast',
  description: 'Weather forecast.',
  input: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1 },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      units: { enum: ['metric', 'imperial'] },
      detailed: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
    },
    required: ['city', 'days', 'units', 'detailed', 'tags'],
  },
  execute: () => null,
});

function measure(label: string, tool: AnyTool): number {
  const limits = { maxArgBytes: 10_240, maxDepth: 16, maxTotalBytes: 102_400 };
  const validator = compileArgumentsCheck(tool, ajvEngine(tool.dialect, {}), limits, identityNameSet());
  const once = validator.check(args);
  if (once instanceof Promise || !once.ok) throw new Error(`${label}: the typical call does not validate`);
  const iterations = 200_000;
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 7; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) validator.check(args);
    const micros = Number(process.hrtime.bigint() - start) / 1000 / iterations;
    if (round > 1) best = Math.min(best, micros); // the first rounds warm up the JIT
  }
  console.log(
    `tool validation, ${label}: ${best.toFixed(3)} µs per call (5 fields, best of 5 × ${iterations})`,
  );
  return best;
}

const results = [measure('zod (ajv + Standard Schema)', zodTool), measure('JSON Schema (ajv)', jsonTool)];
// Benchmarks report, they do not gate: the exit code stays 0.
console.log(`tool validation target < 5 µs: ${results.every((micros) => micros < 5) ? 'PASS' : 'FAIL'}`);

// For context: a whole `invoke` (validation, policy-free, a synchronous no-op tool, no audit).
const registry = new ToolRegistry().register(zodTool);
const call = { id: 'call_1', name: 'forecast', arguments: args };
const calls = 50_000;
for (let i = 0; i < calls; i++) await registry.invoke(call);
const start = process.hrtime.bigint();
for (let i = 0; i < calls; i++) await registry.invoke(call);
const invokeMicros = Number(process.hrtime.bigint() - start) / 1000 / calls;
console.log(`registry.invoke, zod tool, sync no-op execute: ${invokeMicros.toFixed(2)} µs per call`);
