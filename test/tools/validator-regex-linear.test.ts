import { scope, type } from 'arktype';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidToolSchemaError, type StandardSchemaV1 } from '../../src/core/index.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';
import { watchBacktracking } from '../support/watch-backtracking.ts';

// `^(a+)+$` against 29 a's and a `!`: a backtracking RegExp tries every way of splitting the a's
// (2^29) before it fails — 2.5 s of a blocked event loop before the spine fix, ×2 per extra byte.
const catastrophic = /^(a+)+$/;
const hostile = `${'a'.repeat(29)}!`;
// `(a|a)*c|x` matches any string holding an `x` (so the JSON Schema check accepts it), after
// trying the `(a|a)*c` branch at every position first, in exponential time on a backtracking engine.
const matchingHostile = `${'a'.repeat(60)}x`;
const call = (name: string, args: Record<string, unknown>) => ({ id: 'call_1', name, arguments: args });

/** `watchBacktracking` on this file's hostile values by default. */
const watchHostile = (watched: readonly string[] = [hostile, matchingHostile], answer = false) =>
  watchBacktracking(watched, answer);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('valibot regex() actions run on the linear-time engine', () => {
  const jsonSchema = {
    type: 'object',
    properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['id'],
  };

  it('a catastrophic pattern on a hostile value is refused by the linear engine, never backtracked', async () => {
    const id = v.pipe(v.string(), v.regex(catastrophic));
    const schema = v.object({ id, tags: v.optional(v.array(v.pipe(v.string(), v.regex(/(a|a)*c|x/)))) });
    const tool = defineTool({
      name: 'lookup',
      description: 'Looks up.',
      input: schema,
      inputJsonSchema: jsonSchema,
      execute: ({ id: value, tags }) => `${value} ${tags?.length ?? 0}`,
    });
    const registry = new ToolRegistry().register(tool);
    const backtracked = watchHostile();

    expect(await registry.invoke(call('lookup', { id: hostile }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(await registry.invoke(call('lookup', { id: 'aaa', tags: [matchingHostile] }))).toMatchObject({
      status: 'ok',
      result: 'aaa 1',
    });
    expect(backtracked).toEqual([]);
    // The same checks as before: valibot's own parse of the caller's schema agrees.
    expect(v.safeParse(id, 'aaaa').success).toBe(true);
    expect(v.safeParse(id, 'aab').success).toBe(false);
    expect(v.safeParse(id, hostile).success).toBe(false);
    expect(backtracked).toEqual([]);
  });

  it('patterns that must still work: flags, a lazy schema, a union, and the issue message', async () => {
    const node: v.GenericSchema = v.object({
      name: v.pipe(v.string(), v.regex(/^ab$/i, 'not an ab')),
      next: v.optional(v.lazy(() => node)),
    });
    const schema = v.object({
      root: node,
      pick: v.union([v.pipe(v.string(), v.regex(/^x+$/)), v.pipe(v.string(), v.regex(catastrophic))]),
      line: v.pipe(v.string(), v.regex(/^b$/m)),
      dot: v.pipe(v.string(), v.regex(/^a.b$/s)),
    });
    const tool = defineTool({
      name: 'shapes',
      description: 'Shapes.',
      input: schema,
      inputJsonSchema: {
        type: 'object',
        properties: { root: { type: 'object' }, pick: {}, line: {}, dot: {} },
        required: ['root', 'pick', 'line', 'dot'],
      },
      execute: () => 'ok',
    });
    const registry = new ToolRegistry().register(tool);
    const backtracked = watchHostile();
    const good = { root: { name: 'AB', next: { name: 'ab' } }, pick: 'aaa', line: 'x\nb', dot: 'a\nb' };
    expect(await registry.invoke(call('shapes', good))).toMatchObject({ status: 'ok' });
    const deep = { ...good, root: { name: 'ab', next: { name: 'ab', next: { name: hostile } } } };
    const refused = await registry.invoke(call('shapes', deep));
    expect(refused).toMatchObject({ status: 'invalid_arguments' });
    expect(JSON.stringify(refused)).toContain('not an ab');
    expect(await registry.invoke(call('shapes', { ...good, pick: hostile }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(v.safeParse(schema, { ...good, line: 'x\nc' }).success).toBe(false);
    expect(v.safeParse(schema, { ...good, dot: 'a\n\nb' }).success).toBe(false);
    expect(backtracked).toEqual([]);
  });

  it('a pattern RE2 cannot run refuses the tool at registration, naming the tool and the pattern', () => {
    const define = () =>
      defineTool({
        name: 'echo',
        description: 'Echoes.',
        input: v.object({ word: v.pipe(v.string(), v.regex(/^(\w)\1$/)) }),
        inputJsonSchema: { type: 'object' },
        execute: () => 'ok',
      });
    expect(define).toThrow(InvalidToolSchemaError);
    expect(define).toThrow(/"echo".*valibot pattern \/\^\(\\w\)\\1\$\//);
  });
});

describe('valibot: lazy schemas and internals rxagent does not know', () => {
  const pattern = v.pipe(v.string(), v.regex(/(a|a)*c|x/));
  const jsonSchema = { type: 'object', properties: { y: { type: 'string' } }, required: ['y'] };

  it('lazyAsync: the schema an async getter resolves to runs its patterns linearly', async () => {
    const schema = v.objectAsync({ y: v.lazyAsync(() => Promise.resolve(pattern)) });
    const tool = defineTool({
      name: 'later',
      description: 'Later.',
      input: schema,
      inputJsonSchema: jsonSchema,
      execute: () => 'ok',
    });
    const registry = new ToolRegistry().register(tool);
    const backtracked = watchHostile();
    expect(await registry.invoke(call('later', { y: matchingHostile }))).toMatchObject({ status: 'ok' });
    expect((await v.safeParseAsync(schema, { y: 'aab' })).success).toBe(false);
    expect(backtracked).toEqual([]);
  });

  it('a pattern RE2 cannot run, returned by a lazy getter, refuses the value: no throw out of safeParse', async () => {
    const lookahead = v.object({ y: v.pipe(v.string(), v.regex(/^(?=a)\w+$/)) });
    const plain = v.object({ y: v.string() });
    const schema = v.object({ pick: v.lazy((input) => (isLookahead(input) ? lookahead : plain)) });
    const tool = defineTool({
      name: 'pick',
      description: 'Picks.',
      input: schema,
      inputJsonSchema: { type: 'object', properties: { pick: jsonSchema }, required: ['pick'] },
      execute: () => 'ok',
    });
    const registry = new ToolRegistry().register(tool);
    // The caller's own use of the schema: an issue, as valibot reports it, never an exception.
    expect(v.safeParse(schema, { pick: { y: 'look' } }).success).toBe(false);
    expect(v.safeParse(schema, { pick: { y: 'b' } }).success).toBe(true);
    expect(await registry.invoke(call('pick', { pick: { y: 'look' } }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(await registry.invoke(call('pick', { pick: { y: 'b' } }))).toMatchObject({ status: 'ok' });
  });

  it('fails closed on regex actions not shaped as this valibot makes them (a newer valibot)', () => {
    const define = (action: unknown) => () =>
      defineTool({
        name: 'newer',
        description: 'Newer.',
        input: v.object({ y: v.pipe(v.string(), action as ReturnType<typeof v.regex>) }),
        inputJsonSchema: jsonSchema,
        execute: () => 'ok',
      });
    const hidden = /^(a+)+$/;
    const action = v.regex(hidden);
    // Its check runs a RegExp of its own, not `this.requirement`.
    const closure = {
      ...action,
      '~run'(dataset: { typed: boolean; value: string }) {
        if (dataset.typed) hidden.test(dataset.value);
        return dataset;
      },
    };
    expect(define(closure)).toThrow(InvalidToolSchemaError);
    // The RegExp kept under another name, or the action of another kind.
    const { requirement, ...rest } = action;
    expect(define({ ...rest, pattern: requirement })).toThrow(/valibot version differs/);
    expect(define({ ...action, kind: 'check' })).toThrow(InvalidToolSchemaError);
    expect(define(v.email())).not.toThrow();
  });
});

function isLookahead(input: unknown): boolean {
  return typeof input === 'object' && input !== null && (input as { y?: unknown }).y === 'look';
}

describe('arktype pattern constraints run on the linear-time engine', () => {
  it('a catastrophic pattern on a hostile value is refused by the linear engine, never backtracked', async () => {
    const schema = type({ id: catastrophic, 'tags?': type(/(a|a)*c|x/).array() });
    const tool = defineTool({
      name: 'lookup',
      description: 'Looks up.',
      input: schema,
      execute: ({ id, tags }) => `${id} ${tags?.length ?? 0}`,
    });
    const registry = new ToolRegistry().register(tool);
    const backtracked = watchHostile();

    expect(await registry.invoke(call('lookup', { id: hostile }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(await registry.invoke(call('lookup', { id: 'aaa', tags: [matchingHostile] }))).toMatchObject({
      status: 'ok',
      result: 'aaa 1',
    });
    // The caller's type itself, in both of arktype's paths (allows, and the one that reports).
    expect(schema.allows({ id: hostile })).toBe(false);
    expect(String(schema({ id: hostile }))).toContain('id must be matched by ^(a+)+$');
    expect(schema.allows({ id: 'aaaa' })).toBe(true);
    expect(backtracked).toEqual([]);
  });

  it('patterns that must still work: flags, arktype keywords, unions, and other types sharing a pattern', async () => {
    const schema = type({ name: /^ab$/, 'email?': 'string.email', pick: type(/^x+$/).or(catastrophic) });
    const tool = defineTool({ name: 'shapes', description: 'Shapes.', input: schema, execute: () => 'ok' });
    const registry = new ToolRegistry().register(tool);
    const backtracked = watchHostile();
    const good = { name: 'ab', email: 'bob@example.com', pick: 'aaa' };
    expect(await registry.invoke(call('shapes', good))).toMatchObject({ status: 'ok' });
    for (const bad of [{ name: 'AB' }, { email: 'bob' }, { pick: hostile }, { pick: 'xa' }]) {
      expect(await registry.invoke(call('shapes', { ...good, ...bad }))).toMatchObject({
        status: 'invalid_arguments',
      });
    }
    // Flags keep their meaning (arktype's JSON Schema drops them, so they are checked on the type).
    const flagged = type({ name: /^ab$/i, line: /^b$/m, dot: /^a.b$/s });
    defineTool({ name: 'flags', description: 'Flags.', input: flagged, execute: () => 'ok' });
    expect(flagged.allows({ name: 'AB', line: 'x\nb', dot: 'a\nb' })).toBe(true);
    for (const bad of [{ name: 'AC' }, { line: 'x\nc' }, { dot: 'a\n\nb' }]) {
      expect(flagged.allows({ name: 'AB', line: 'x\nb', dot: 'a\nb', ...bad })).toBe(false);
    }
    // A type defined later with the same pattern shares its node; registered, it runs linearly too.
    const later = type({ other: catastrophic });
    defineTool({ name: 'later', description: 'Later.', input: later, execute: () => 'ok' });
    expect(later.allows({ other: hostile })).toBe(false);
    expect(later.allows({ other: 'a' })).toBe(true);
    expect(backtracked).toEqual([]);
  });

  it('a jitless scope (no generated code, as under a CSP) runs its patterns linearly too', async () => {
    const { lookup } = scope({ lookup: { id: catastrophic } }, { jitless: true }).export();
    const registry = new ToolRegistry().register(
      defineTool({ name: 'lookup', description: 'Looks up.', input: lookup, execute: ({ id }) => id }),
    );
    const backtracked = watchHostile();
    expect(await registry.invoke(call('lookup', { id: hostile }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(await registry.invoke(call('lookup', { id: 'aa' }))).toMatchObject({ status: 'ok', result: 'aa' });
    expect(backtracked).toEqual([]);
  });

  it('a jitless scope using a compiled type: the compiled code is generated again, not left with its literal', async () => {
    const tags = type(/(a|a)*c|z/).array();
    const { lookup } = scope({ lookup: { tags } }, { jitless: true }).export();
    const registry = new ToolRegistry().register(
      defineTool({ name: 'mixed', description: 'Mixed.', input: lookup, execute: () => 'ok' }),
    );
    const value = `${'a'.repeat(60)}z`;
    const backtracked = watchHostile([value], true);
    expect(await registry.invoke(call('mixed', { tags: [value] }))).toMatchObject({ status: 'ok' });
    expect(await registry.invoke(call('mixed', { tags: ['aab'] }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(backtracked).toEqual([]);
  });

  it('a type compiled after one of its patterns was made linear, before another was, is compiled again', async () => {
    // `both` is compiled while only `catastrophic` is linear: its code holds the other pattern's
    // literal. Making that pattern linear for another tool must not leave `both` running the literal.
    const backtrackingWhenMatching = /(a|a)*c|y/;
    defineTool({
      name: 'first',
      description: 'First.',
      input: type({ a: catastrophic }),
      execute: () => 'ok',
    });
    const second = type({ b: backtrackingWhenMatching });
    const both = type({ a: catastrophic, b: backtrackingWhenMatching });
    defineTool({ name: 'second', description: 'Second.', input: second, execute: () => 'ok' });
    const registry = new ToolRegistry().register(
      defineTool({ name: 'both', description: 'Both.', input: both, execute: () => 'ok' }),
    );
    // A value the pattern matches, after exponential backtracking: recorded and answered at once.
    const value = `${'a'.repeat(60)}y`;
    const backtracked = watchHostile([value], true);
    expect(await registry.invoke(call('both', { a: 'a', b: value }))).toMatchObject({ status: 'ok' });
    expect(both.allows({ a: 'a', b: value })).toBe(true);
    expect(backtracked).toEqual([]);
  });

  it('fails closed on internals it does not know (a newer arktype): the tool is refused, typed', () => {
    const define = (input: unknown) => () =>
      defineTool({
        name: 'newer',
        description: 'Newer.',
        input: input as StandardSchemaV1,
        execute: () => 'ok',
      });
    // A pattern node whose RegExp is not where this arktype keeps it.
    const moved = type({ id: /^(b+)+$/ });
    for (const node of (moved as unknown as { references: { kind: string; instance?: unknown }[] })
      .references) {
      if (node.kind === 'pattern') Object.defineProperty(node, 'instance', { value: undefined });
    }
    expect(define(moved)).toThrow(InvalidToolSchemaError);
    // Compiled code that is not where this arktype keeps it (so it cannot be generated again).
    const renamed = type({ id: /^(c+)+$/ });
    Object.defineProperty(renamed, 'precompilation', { value: undefined });
    expect(define(renamed)).toThrow(/arktype version differs/);
    // No node references at all.
    const standardOnly = { '~standard': type({ id: 'string' })['~standard'] };
    expect(define(standardOnly)).toThrow(InvalidToolSchemaError);
  });

  it('a pattern RE2 cannot run refuses the tool at registration, naming the tool and the pattern', () => {
    const define = () =>
      defineTool({
        name: 'echo',
        description: 'Echoes.',
        input: type({ word: /^(?=a)\w+$/ }),
        execute: () => 'ok',
      });
    expect(define).toThrow(InvalidToolSchemaError);
    expect(define).toThrow(/"echo".*arktype pattern/);
  });
});
