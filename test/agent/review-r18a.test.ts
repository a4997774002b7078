import { EMPTY } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type ChatRequest,
  defineTool,
  memorySessionStore,
  ContextOverflowError,
  IncompleteStreamError,
  user,
  assistant,
} from '../../src/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { expectNoOrphans } from './no-orphans.ts';

const sent: string[] = [];
const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email.',
  input: z.object({ to: z.string() }),
  execute: ({ to }) => {
    sent.push(to);
    return 'sent';
  },
});
const email = (to: string) => ({ toolCalls: [{ id: `c_${to}`, name: 'send_email', arguments: { to } }] });

describe('R18a-1: a stopWhen that throws keeps the step whose tools ran', () => {
  it('the email sent in the step is in the session, with its call, and the run fails with the error', async () => {
    sent.length = 0;
    const sessions = memorySessionStore();
    const agent = new Agent({
      model: scriptedModel([email('ann@example.com'), { text: 'never' }]),
      tools: [sendEmail],
      sessions,
    });
    const boom = new Error('stopWhen broke');
    await expect(
      agent.chat('email Ann', {
        sessionId: 's',
        stopWhen: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    expect(sent).toEqual(['ann@example.com']);
    const messages = (await sessions.get('s'))?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expectNoOrphans(messages);
  });
});

describe('R18a-2: the no-count shortcut holds for every script, not only Latin text', () => {
  it('a Burmese chat on gpt-4 (8k window, cl100k: 2 tokens a character) is counted and trimmed to fit', async () => {
    const gpt4 = openai('gpt-4', { apiKey: 'sk-test' });
    const count = (request: ChatRequest) => gpt4.countTokens?.(request) ?? Promise.resolve(0);
    const model = scriptedModel([{ text: 'ok' }], { loop: true, contextWindow: 8192, countTokens: count });
    const burmese = 'မြန်မာဘာသာစကား '.repeat(70); // ~1,050 characters, ~2,000 cl100k tokens
    const sessions = memorySessionStore();
    const history = Array.from({ length: 4 }, () => [user(burmese), assistant('ok')]).flat();
    await sessions.append('b', history);
    const agent = new Agent({ model, sessions, maxOutputTokens: 512, context: { strategy: 'trim' } });
    await agent.chat(burmese, { sessionId: 'b' });
    const sentTokens = await count(model.requests[0] as ChatRequest);
    expect(sentTokens).toBeLessThanOrEqual(8192 - 512);
  });

  it('a 300-page PDF (counted at ~250,000 tokens) is counted, not waved through as one image', async () => {
    const count = (request: ChatRequest) =>
      (request.messages as readonly { content: unknown }[]).some(
        (m) => Array.isArray(m.content) && m.content.some((p: { type: string }) => p.type === 'file'),
      )
        ? 250_000
        : 10;
    const model = scriptedModel([{ text: 'ok' }], { loop: true, contextWindow: 200_000, countTokens: count });
    const agent = new Agent({ model, context: { strategy: 'trim' } });
    const pdf = { type: 'file' as const, data: 'JVBERi0xLjQK', mediaType: 'application/pdf' };
    await expect(agent.chat([user([{ type: 'text', text: 'Summarise this.' }, pdf])])).rejects.toBeInstanceOf(
      ContextOverflowError,
    );
    expect(model.requests).toHaveLength(0);
  });
});

describe('R18a-3: a summarizer that ignores its budget costs a bounded number of calls', () => {
  it('a 40,000-character "summary" every time: a few summarizer calls, then ContextOverflowError', async () => {
    const chars = (request: ChatRequest) =>
      Math.ceil(JSON.stringify([request.messages, request.system ?? '']).length / 4);
    const model = scriptedModel([{ text: 'ok' }], { loop: true, contextWindow: 8192, countTokens: chars });
    const summarizer = scriptedModel([{ text: 'blah '.repeat(8_000) }], { loop: true });
    const sessions = memorySessionStore();
    const turn = 'Tell me about the history of the region in detail. '.repeat(10);
    await sessions.append('g', Array.from({ length: 40 }, () => [user(turn), assistant(turn)]).flat());
    const agent = new Agent({
      model,
      sessions,
      maxOutputTokens: 512,
      context: { strategy: 'summarize', summarizer },
    });
    await expect(agent.chat('And now?', { sessionId: 'g' })).rejects.toBeInstanceOf(ContextOverflowError);
    expect(summarizer.requests.length).toBeLessThanOrEqual(3);
    expect(model.requests).toHaveLength(0);
  });
});

describe('R18a-4: a context strategy that yields nothing fails the run with a typed error', () => {
  it('a custom strategy returning EMPTY: the run rejects with ContextOverflowError, not silence', async () => {
    const model = scriptedModel([{ text: 'ok' }], { loop: true, contextWindow: 100 });
    const agent = new Agent({ model, context: { strategy: () => EMPTY } });
    const events: string[] = [];
    const ended = new Promise<unknown>((resolve) => {
      agent.run('x '.repeat(500)).subscribe({
        next: (e) => events.push(e.type),
        error: resolve,
        complete: () => resolve('completed'),
      });
    });
    await expect(ended).resolves.toBeInstanceOf(ContextOverflowError);
    expect(events).not.toContain('agent-completed');
  });
});

describe('R18a-4b: a summarizer whose stream ends without a response fails the run', () => {
  it('rejects with IncompleteStreamError instead of completing with no agent-completed', async () => {
    const model = scriptedModel([{ text: 'ok' }], { loop: true, contextWindow: 2048 });
    const summarizer = { ...scriptedModel([{ text: 'x' }]), stream: () => EMPTY };
    const sessions = memorySessionStore();
    const turn = 'Tell me about the history of the region in detail. '.repeat(10);
    await sessions.append('e', Array.from({ length: 10 }, () => [user(turn), assistant(turn)]).flat());
    const agent = new Agent({ model, sessions, context: { strategy: 'summarize', summarizer } });
    await expect(agent.chat('And now?', { sessionId: 'e' })).rejects.toBeInstanceOf(IncompleteStreamError);
  });
});

describe('R18a-5: a tool prepareStep left out is not run when a model calls it anyway', () => {
  it('activeTools: [] after step 1: a second send_email is answered not_found, not sent', async () => {
    sent.length = 0;
    const sessions = memorySessionStore();
    const agent = new Agent({
      model: scriptedModel([email('ann@example.com'), email('bob@example.com'), { text: 'done' }]),
      tools: [sendEmail],
      sessions,
    });
    await agent.chat('email Ann', {
      sessionId: 'p',
      prepareStep: ({ step }) => (step > 1 ? { activeTools: [] } : undefined),
    });
    expect(sent).toEqual(['ann@example.com']);
    const messages = (await sessions.get('p'))?.messages ?? [];
    expectNoOrphans(messages);
    const last = messages.filter((m) => m.role === 'tool').at(-1);
    expect(last?.isError).toBe(true);
    expect(JSON.stringify(last?.content)).toContain('Unknown tool');
  });
});

describe('R18a-6: activeTools: [] after a tool step sends a request Bedrock and Anthropic accept', () => {
  it('step 2 (after tool calls) sends the tools with toolChoice none, not tool blocks without tools', async () => {
    sent.length = 0;
    const model = scriptedModel([email('ann@example.com'), { text: 'done' }]);
    const agent = new Agent({ model, tools: [sendEmail] });
    await agent.chat('email Ann', {
      prepareStep: ({ step }) => (step > 1 ? { activeTools: [] } : undefined),
    });
    const second = model.requests[1];
    expect(second?.tools?.map((t) => t.name)).toEqual(['send_email']);
    expect(second?.toolChoice).toBe('none');
    expect(model.requests[0]?.toolChoice).toBeUndefined();
  });
});

describe('R18a-7: a session with an orphaned call (an older version, a hand-written import) still runs', () => {
  it('the request answers the call with an error result and drops a result without its call', async () => {
    const sessions = memorySessionStore();
    await sessions.append('o', [
      user('email Ann'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'lost', name: 'send_email', arguments: { to: 'a' } }],
      },
      { role: 'tool', toolCallId: 'stray', content: 'sent' },
      user('are you there?'),
      assistant('yes'),
    ]);
    const model = scriptedModel([{ text: 'ok' }]);
    const agent = new Agent({ model, tools: [sendEmail], sessions });
    await agent.chat('hello', { sessionId: 'o' });
    const request = model.requests[0];
    const messages = typeof request?.messages === 'string' ? [] : (request?.messages ?? []);
    expectNoOrphans(messages);
    expect(messages.some((m) => m.toolCallId === 'stray')).toBe(false);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant', 'user']);
    // The session keeps what it had.
    expect((await sessions.get('o'))?.messages).toHaveLength(7);
  });
});
