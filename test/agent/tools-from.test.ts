import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidToolNameError, ToolRegistry } from '../../src/index.ts';
import { tool, toolsFrom } from '../../src/tools/tools-from.ts';
import type { decoratedClasses } from './fixtures/decorated-tools.ts';

let classes: ReturnType<typeof decoratedClasses>;
let dir: string;

beforeAll(async () => {
  // Compiled with TypeScript's own standard (TC39) decorator emit, as a user's build would.
  const source = await readFile(new URL('./fixtures/decorated-tools.ts', import.meta.url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  dir = await mkdtemp(join(tmpdir(), 'rxagent-tools-from-'));
  const file = join(dir, 'decorated-tools.mjs');
  await writeFile(file, outputText);
  const module = (await import(pathToFileURL(file).href)) as { decoratedClasses: typeof decoratedClasses };
  classes = module.decoratedClasses(tool, z);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('toolsFrom and @tool', () => {
  it('turns marked methods into tools bound to the instance, validated like defineTool', async () => {
    const weather = new classes.Weather();
    const tools = toolsFrom(weather);
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'forecast']);
    const registry = new ToolRegistry();
    for (const t of tools) registry.register(t);
    const ok = await registry.invoke({ id: '1', name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(ok).toMatchObject({ status: 'ok', result: { city: 'Oslo', temp: '18 C' } });
    expect(weather.calls).toBe(1);
    const bad = await registry.invoke({ id: '2', name: 'get_weather', arguments: { city: '' } });
    expect(bad.status).toBe('invalid_arguments');
    const unknownField = await registry.invoke({ id: '3', name: 'forecast', arguments: { days: 2, x: 1 } });
    expect(unknownField.status).toBe('invalid_arguments');
    expect(weather.calls).toBe(1);
  });

  it('inherited marked methods are bound to the subclass instance', async () => {
    const registry = new ToolRegistry();
    for (const t of toolsFrom(new classes.Fahrenheit())) registry.register(t);
    const outcome = await registry.invoke({ id: '1', name: 'forecast', arguments: { days: 3 } });
    expect(outcome.result).toEqual({ days: 3, unit: 'F' });
  });

  it('a bad tool name is refused when the tools are made', () => {
    expect(() => toolsFrom(new classes.Bad())).toThrow(InvalidToolNameError);
  });

  it('an object without marked methods has no tools; @tool refuses what is not a public method', () => {
    expect(toolsFrom({})).toEqual([]);
    expect(toolsFrom(new (class {})())).toEqual([]);
    const decorate = tool({ description: 'x', input: z.object({}) }) as (m: unknown, c: unknown) => void;
    expect(() => decorate(() => 1, { kind: 'field', name: 'x', private: false, static: false })).toThrow(
      TypeError,
    );
    expect(() => decorate(() => 1, { kind: 'method', name: '#x', private: true, static: false })).toThrow(
      TypeError,
    );
  });

  it('reads no accessor while looking for tools: a getter of private state on the prototype is left alone', () => {
    let reads = 0;
    class Account {
      readonly #balance = 5;
      get balance() {
        reads += 1;
        return this.#balance; // a TypeError when read with the prototype as `this`
      }
    }
    expect(toolsFrom(new Account())).toEqual([]);
    expect(reads).toBe(0);
  });
});
