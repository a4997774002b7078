import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentExtension,
  type AnyTool,
  defineTool,
  DuplicateToolError,
  memoryResponseCache,
  memorySessionStore,
  ToolRegistry,
} from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

const named = (name: string) =>
  defineTool({ name, description: `${name} tool`, input: z.object({}), execute: () => name });
const offered = (model: ReturnType<typeof scriptedModel>, index: number) =>
  model.requests[index]?.tools?.map((tool) => tool.name);

describe('extensions', () => {
  it('agent.use: setup runs once with the agent; a live tool list is read before every step', async () => {
    let live: AnyTool[] = [named('alpha')];
    const setups: Agent[] = [];
    const extension: AgentExtension<Agent> = {
      name: 'hub',
      tools: () => live,
      setup: (agent) => setups.push(agent),
    };
    const model = scriptedModel([
      { toolCalls: [{ name: 'alpha' }] },
      { text: 'one' },
      { toolCalls: [{ name: 'beta' }] },
      { text: 'two' },
    ]);
    const agent = new Agent({ model, tools: [named('own')] }).use(extension);
    expect(setups).toEqual([agent]);
    const first = (await agent.chat('x')).messages.at(2);
    expect(first).toMatchObject({ role: 'tool', content: expect.stringContaining('alpha') });
    expect(first?.isError).toBeUndefined();
    live = [named('beta')];
    expect((await agent.chat('y')).text).toBe('two');
    expect([0, 1, 2, 3].map((index) => offered(model, index))).toEqual([
      ['own', 'alpha'],
      ['own', 'alpha'],
      ['own', 'beta'],
      ['own', 'beta'],
    ]);
    expect(agent.tools.names()).toEqual(['own', 'beta']);
  });

  it('agent.use refuses an extension tool whose name is taken with DuplicateToolError', async () => {
    const agent = new Agent({ model: scriptedModel([{ text: 'x' }]), tools: [named('own')] });
    expect(() => agent.use({ name: 'clash', tools: [named('own')] })).toThrow(DuplicateToolError);
  });
});

describe('Agent.builder() and Agent.create()', () => {
  it('the builder sets the same options as the constructor', async () => {
    const sessions = memorySessionStore();
    const model = scriptedModel([{ toolCalls: [{ name: 'alpha' }] }, { text: 'done' }]);
    const agent = Agent.builder()
      .model(model)
      .tools([named('alpha')])
      .tools([named('gamma')])
      .system('Be brief.')
      .maxSteps(2)
      .sessions(sessions)
      .use({ name: 'more', tools: [named('delta')] })
      .build();
    expect((await agent.chat('go', { sessionId: 's' })).text).toBe('done');
    expect(model.requests[0]).toMatchObject({ system: 'Be brief.' });
    expect(offered(model, 0)).toEqual(['alpha', 'gamma', 'delta']);
    expect((await sessions.get('s'))?.messages).toHaveLength(4);
    expect(agent.options.maxSteps).toBe(2);
  });

  it('every builder method sets its option', () => {
    const sessions = memorySessionStore();
    const approve = () => true;
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const agent = Agent.builder()
      .model(scriptedModel([]))
      .name('bot')
      .budgets({ maxToolCalls: 9, maxInvalidToolCalls: 2, maxRepeatedToolCalls: 1 })
      .toolConcurrency(2)
      .stepRetries(0)
      .temperature(0)
      .sessions(sessions, { onConflict: 'rebase', persistPartialRuns: true })
      .responseCache(memoryResponseCache(), 1000)
      .approve(approve, 500)
      .observe({ logger })
      .build();
    expect(agent.options).toMatchObject({
      name: 'bot',
      maxToolCalls: 9,
      maxInvalidToolCalls: 2,
      maxRepeatedToolCalls: 1,
      toolConcurrency: 2,
      stepRetries: 0,
      temperature: 0,
      sessions,
      onConflict: 'rebase',
      persistPartialRuns: true,
      responseCacheTtlMs: 1000,
      approve,
      approvalTimeoutMs: 500,
      logger,
    });
  });

  it('tools(): a registry and tool lists together is a TypeError, not one silently dropped', () => {
    const registry = new ToolRegistry().register(named('alpha'));
    expect(() =>
      Agent.builder()
        .tools(registry)
        .tools([named('beta')]),
    ).toThrow(TypeError);
    expect(() =>
      Agent.builder()
        .tools([named('beta')])
        .tools(registry),
    ).toThrow(TypeError);
    expect(() => Agent.builder().tools(registry).tools(registry)).toThrow(TypeError);
  });

  it('build() without a model is a TypeError', () => {
    expect(() => Agent.builder().system('x').build()).toThrow(TypeError);
  });

  it('Agent.create takes a plain object, extensions included', async () => {
    const model = scriptedModel([{ text: 'hi' }]);
    const agent = Agent.create({
      model,
      system: 'S',
      extensions: [{ name: 'e', tools: [named('epsilon')] }],
    });
    expect((await agent.chat('x')).text).toBe('hi');
    expect(offered(model, 0)).toEqual(['epsilon']);
  });
});

describe('a refused extension', () => {
  it('leaves the agent as it was: none of its tools stay registered, later runs work', async () => {
    const model = scriptedModel([{ text: 'still fine' }]);
    const agent = new Agent({ model, tools: [named('own')] });
    expect(() => agent.use({ name: 'clash', tools: [named('fresh'), named('own')] })).toThrow(/own/);
    expect(agent.tools.names()).toEqual(['own']);
    expect((await agent.chat('x')).text).toBe('still fine');
    expect(offered(model, 0)).toEqual(['own']);
  });
});

describe('a live extension list that comes to clash with a tool', () => {
  it('fails run and invokeTool as values (an error notification, a rejection), never a throw', async () => {
    let live: AnyTool[] = [];
    const agent = new Agent({ model: scriptedModel([{ text: 'x' }]), tools: [named('own')] });
    agent.use({ name: 'hub', tools: () => live });
    live = [named('own')];
    let invoked: Promise<unknown> | undefined;
    expect(() => {
      invoked = agent.invokeTool('own', {});
    }).not.toThrow();
    await expect(invoked).rejects.toBeInstanceOf(DuplicateToolError);
    await expect(agent.chat('x')).rejects.toBeInstanceOf(DuplicateToolError);
  });
});
