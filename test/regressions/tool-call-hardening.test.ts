import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ForbiddenToolArgumentError, InvalidToolSchemaError } from '../../src/core/index.ts';
import { SecurityPolicy } from '../../src/security/index.ts';
import { defineTool, type Tool, ToolRegistry } from '../../src/tools/index.ts';

const echo = (args: Record<string, unknown>) => args;

describe('tool calls against a hostile model (regressions)', () => {
  it('makes a hand-built Tool as strict as a defineTool one: unknown fields are refused at every depth', async () => {
    // A Tool object not made by defineTool used to be validated against its schema as written, so
    // unknown fields passed at every depth.
    const handBuilt: Tool = {
      name: 'hand_built',
      description: 'Made by hand.',
      origin: 'local',
      parameters: {
        type: 'object',
        properties: { filter: { type: 'object', properties: { city: { type: 'string' } } } },
      },
      dialect: 'draft-2020-12',
      validator: undefined,
      execute: echo,
    };
    const registry = new ToolRegistry().register(handBuilt);
    const outcome = await registry.invoke({
      id: 'c',
      name: 'hand_built',
      arguments: { filter: { city: 'Oslo', admin: true }, debug: 1 },
    });
    expect(outcome.status).toBe('invalid_arguments');
    expect(outcome.error?.issues).toEqual([
      { path: '/debug', message: 'is not a known field' },
      { path: '/filter/admin', message: 'is not a known field' },
    ]);
    expect(registry.definitions()[0]?.parameters).toMatchObject({
      additionalProperties: false,
      properties: { filter: { additionalProperties: false } },
    });
    expect(Object.isFrozen(registry.get('hand_built')?.parameters)).toBe(true);
  });

  it('makes a tool object with its execute on a prototype strict too, keeping `this`', async () => {
    class Counter {
      readonly name = 'counter';
      readonly description = 'Counts.';
      readonly origin = 'local' as const;
      readonly parameters = { type: 'object', properties: { by: { type: 'integer' } } };
      readonly dialect = 'draft-2020-12' as const;
      readonly validator = undefined;
      total = 0;
      execute(args: { by?: number }) {
        this.total += args.by ?? 1;
        return this.total;
      }
    }
    const counter = new Counter();
    const registry = new ToolRegistry().register(counter as unknown as Tool);
    expect((await registry.invoke({ id: 'a', name: 'counter', arguments: { by: 2 } })).result).toBe(2);
    expect((await registry.invoke({ id: 'b', name: 'counter', arguments: { by: 2, x: 1 } })).status).toBe(
      'invalid_arguments',
    );
  });

  it('refuses, with a clear error, a hand-built tool it cannot make strict', () => {
    const base = {
      name: 't',
      description: '',
      origin: 'local',
      validator: undefined,
      execute: echo,
    } as const;
    const registry = new ToolRegistry();
    const cases: [unknown, RegExp][] = [
      [{ ...base, parameters: { type: 'array' }, dialect: 'draft-2020-12' }, /must describe an object/],
      [{ ...base, parameters: { type: 'object' }, dialect: 'draft-04' }, /unsupported dialect "draft-04"/],
      [
        { ...base, parameters: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' } },
        /unsupported \$schema/,
      ],
      [
        { ...base, parameters: { type: 'object', properties: { n: { type: 'nope' } } } },
        /Invalid input schema/,
      ],
      [{ ...base, parameters: { type: 'object', big: 1n } }, /parameters is not JSON/],
    ];
    for (const [tool, message] of cases) {
      expect(() => registry.register(tool as Tool)).toThrow(InvalidToolSchemaError);
      expect(() => registry.register(tool as Tool)).toThrow(message);
    }
    expect(() =>
      registry.register({ ...base, parameters: { type: 'object' }, execute: undefined } as never),
    ).toThrow(/no execute function/);
    const identity = {
      ...base,
      parameters: { type: 'object', properties: { userName: { type: 'string' } } },
    };
    expect(() => registry.register(identity as unknown as Tool)).toThrow(ForbiddenToolArgumentError);
  });

  it('answers a denied or not-allowed tool exactly as an unknown one, before validation, leaking nothing of its schema', async () => {
    const secret = defineTool({
      name: 'internal_admin',
      description: 'Internal.',
      input: z.object({ mode: z.enum(['wipe_everything', 'rotate_keys']), confirmationCode: z.string() }),
      execute: () => 'done',
    });
    const unknown = await new ToolRegistry().invoke({ id: 'c', name: 'internal_admin', arguments: {} });
    for (const policy of [
      new SecurityPolicy({ deny: ['internal_*'] }),
      new SecurityPolicy({ allow: ['get_*'] }),
    ]) {
      const registry = new ToolRegistry({ policy }).register(secret);
      const outcome = await registry.invoke({ id: 'c', name: 'internal_admin', arguments: { mode: 'x' } });
      expect(outcome.status).toBe('not_found');
      expect(outcome.content).toBe(unknown.content);
      expect(outcome.error).toEqual(unknown.error);
      for (const leak of ['wipe_everything', 'confirmationCode', 'mode', 'allowed'])
        expect(outcome.content).not.toContain(leak);
      expect(registry.definitions()).toEqual([]);
    }
  });

  it('answers a call whose JSON did not parse with invalid_arguments giving the parse reason', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'get_weather',
      description: '',
      input: z.object({}),
      execute: () => (ran = true),
    });
    const outcome = await new ToolRegistry().register(tool).invoke({
      id: 'c',
      name: 'get_weather',
      arguments: {},
      invalidArguments: {
        raw: '{"city": "Oslo"',
        message: "Expected ',' or '}' after property value in JSON at position 15",
      },
    });
    expect(outcome.status).toBe('invalid_arguments');
    expect(JSON.parse(String(outcome.content))).toEqual({
      error: 'invalid_arguments',
      message:
        "The arguments of get_weather are not a JSON object (Expected ',' or '}' after property value in JSON at position 15); send valid JSON and call again",
      issues: [{ path: '', message: "Expected ',' or '}' after property value in JSON at position 15" }],
    });
    expect(ran).toBe(false); // `{}` would have been valid: the broken call must not run as an empty one
  });

  it('refuses identity-shaped keys that reach an open map, at any depth, any case or separator', async () => {
    const tool = defineTool({
      name: 'search',
      description: '',
      input: {
        type: 'object',
        properties: {
          filters: { type: 'object', additionalProperties: { type: 'string' } },
          extra: { type: 'object', patternProperties: { '^.*$': {} } },
          rows: { type: 'array', items: { type: 'object', additionalProperties: true } },
        },
      },
      execute: () => 'ok',
    });
    const registry = new ToolRegistry({ forbiddenArgumentNames: ['workspace_id'] }).register(tool);
    const cases: [Record<string, unknown>, string][] = [
      [{ filters: { userId: 'u_1' } }, '/filters/userId'],
      [{ filters: { city: 'Oslo', 'ON-BEHALF-OF': 'boss' } }, '/filters/ON-BEHALF-OF'],
      [{ extra: { ｕｓｅｒ＿ｉｄ: 'u_1' } }, '/extra/ｕｓｅｒ＿ｉｄ'],
      [{ extra: { nested: { Sub: 'u_1' } } }, '/extra/nested/Sub'],
      [{ rows: [{ ok: 1 }, { member_id: 7 }] }, '/rows/1/member_id'],
      [{ filters: { WorkspaceId: 'w' } }, '/filters/WorkspaceId'],
    ];
    for (const [args, path] of cases) {
      const outcome = await registry.invoke({ id: 'c', name: 'search', arguments: args });
      expect(outcome.status).toBe('invalid_arguments');
      expect(outcome.error?.issues).toEqual([{ path, message: expect.stringMatching(/names who acts/) }]);
    }
    expect(
      (await registry.invoke({ id: 'c', name: 'search', arguments: { filters: { city: 'Oslo' } } })).status,
    ).toBe('ok');
  });
});
