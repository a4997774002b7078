/**
 * 2026-07-28 multi-round-trip fixtures (SEP-2322): tools and a prompt that answer `input_required`
 * until the client supplies elicitation, sampling or roots input. `requestState` is sealed with the
 * SDK's codec, so a tampered state is refused before a handler runs.
 */
import { randomUUID } from 'node:crypto';
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type InputRequests,
  inputRequired,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

/** One codec per process: the state is the only thing that survives between rounds. */
export const requestStateCodec = createRequestStateCodec<Record<string, unknown>>({
  key: crypto.getRandomValues(new Uint8Array(32)),
});

const none = { inputSchema: z.object({}) };
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const ask = (message: string, field: string, type = 'string') =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] } as never,
  });
const sample = (prompt: string, maxTokens: number) =>
  inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens,
  });
const seal = (payload: Record<string, unknown>) =>
  requestStateCodec.mint({ ...payload, nonce: randomUUID() });

/** Registers the multi-round-trip tools and prompt. */
export function addInputRequiredTools(server: McpServer): void {
  server.registerTool('test_missing_capability', { description: 'Needs sampling', ...none }, (_args, ctx) =>
    ctx.mcpReq.inputResponses?.['llm_answer'] === undefined
      ? inputRequired({ inputRequests: { llm_answer: sample('Reply with the single word: pong', 16) } })
      : text('sampling round-trip complete'),
  );
  server.registerTool('test_streaming_elicitation', { description: 'Result frames only', ...none }, () =>
    text('stream observed: result frames only'),
  );
  server.registerTool(
    'test_input_required_result_elicitation',
    { description: 'Asks for a name', ...none },
    (_args, ctx) => {
      const name = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'user_name')?.name;
      return typeof name === 'string'
        ? text(`Hello, ${name}!`)
        : inputRequired({ inputRequests: { user_name: ask('What is your name?', 'name') } });
    },
  );
  server.registerTool(
    'test_input_required_result_sampling',
    { description: 'Asks for a completion', ...none },
    (_args, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.['capital_question'] as
        { content?: { text?: string } } | undefined;
      return answer === undefined
        ? inputRequired({
            inputRequests: { capital_question: sample('What is the capital of France?', 100) },
          })
        : text(`Sampling response: ${answer.content?.text ?? JSON.stringify(answer)}`);
    },
  );
  server.registerTool(
    'test_input_required_result_list_roots',
    { description: 'Asks for roots', ...none },
    (_args, ctx) => {
      const roots = (
        ctx.mcpReq.inputResponses?.['client_roots'] as { roots?: { uri?: string }[] } | undefined
      )?.roots;
      return Array.isArray(roots)
        ? text(`Client exposed ${roots.length} root(s): ${roots.map((root) => root.uri).join(', ')}`)
        : inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    },
  );
  server.registerTool(
    'test_input_required_result_request_state',
    { description: 'Round-trips state', ...none },
    async (_args, ctx) => {
      if (acceptedContent(ctx.mcpReq.inputResponses, 'confirm') === undefined) {
        return inputRequired({
          inputRequests: { confirm: ask('Please confirm', 'ok', 'boolean') },
          requestState: await seal({ tool: 'request_state' }),
        });
      }
      if (ctx.mcpReq.requestState() === undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid requestState');
      }
      return text('state-ok: requestState verified and confirmation received');
    },
  );
  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'Three inputs at once', ...none },
    async (_args, ctx) => {
      const responses = ctx.mcpReq.inputResponses;
      const name = acceptedContent<{ name: string }>(responses, 'user_name')?.name;
      const greeting = (responses?.['greeting'] as { content?: { text?: string } } | undefined)?.content
        ?.text;
      const roots = (responses?.['client_roots'] as { roots?: unknown[] } | undefined)?.roots;
      if (typeof name === 'string' && typeof greeting === 'string' && Array.isArray(roots)) {
        return text(`${greeting} ${name} — ${roots.length} root(s) visible`);
      }
      return inputRequired({
        inputRequests: {
          user_name: ask('What is your name?', 'name'),
          greeting: sample('Generate a greeting', 50),
          client_roots: inputRequired.listRoots(),
        },
        requestState: await seal({ tool: 'multiple_inputs' }),
      });
    },
  );
  server.registerTool(
    'test_input_required_result_multi_round',
    { description: 'Two rounds', ...none },
    async (_args, ctx) => {
      const state = ctx.mcpReq.requestState<Record<string, unknown>>();
      const round =
        state?.['tool'] === 'multi_round' && typeof state['round'] === 'number' ? state['round'] : 0;
      if (round === 0) {
        return inputRequired({
          inputRequests: { step1: ask('Step 1: What is your name?', 'name') },
          requestState: await seal({ tool: 'multi_round', round: 1 }),
        });
      }
      if (round === 1) {
        const name = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'step1')?.name ?? 'unknown';
        return inputRequired({
          inputRequests: { step2: ask('Step 2: What is your favorite color?', 'color') },
          requestState: await seal({ tool: 'multi_round', round: 2, name }),
        });
      }
      const color =
        acceptedContent<{ color: string }>(ctx.mcpReq.inputResponses, 'step2')?.color ?? 'unknown';
      return text(`Multi-round complete: ${String(state?.['name'] ?? 'unknown')} likes ${color}`);
    },
  );
  server.registerTool(
    'test_input_required_result_tampered_state',
    { description: 'Refuses tampered state', ...none },
    async (_args, ctx) => {
      if (
        ctx.mcpReq.requestState() !== undefined &&
        acceptedContent(ctx.mcpReq.inputResponses, 'confirm') !== undefined
      ) {
        return text('integrity-ok: requestState verified');
      }
      return inputRequired({
        inputRequests: { confirm: ask('Please confirm', 'ok', 'boolean') },
        requestState: await seal({ tool: 'tampered_state' }),
      });
    },
  );
  server.registerTool(
    'test_input_required_result_capabilities',
    { description: 'Asks only what the client can answer', ...none },
    (_args, ctx) => {
      if (ctx.mcpReq.inputResponses !== undefined) return text('Capability-aware input requests fulfilled');
      const envelope: Record<string, unknown> = { ...ctx.mcpReq.envelope };
      const declared = envelope[CLIENT_CAPABILITIES_META_KEY] as
        { elicitation?: unknown; sampling?: unknown; roots?: unknown } | undefined;
      const inputRequests: InputRequests = {};
      if (declared?.elicitation !== undefined) inputRequests['user_name'] = ask('What is your name?', 'name');
      if (declared?.sampling !== undefined)
        inputRequests['greeting'] = sample('Generate a short greeting', 50);
      if (declared?.roots !== undefined) inputRequests['client_roots'] = inputRequired.listRoots();
      return Object.keys(inputRequests).length === 0
        ? text('No declared client capability supports an in-band input request')
        : inputRequired({ inputRequests });
    },
  );
  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'Needs context first' },
    (ctx) => {
      const context = acceptedContent<{ context: string }>(
        ctx.mcpReq.inputResponses,
        'user_context',
      )?.context;
      return typeof context === 'string'
        ? {
            messages: [
              { role: 'user', content: { type: 'text', text: `Use the following context: ${context}` } },
            ],
          }
        : inputRequired({
            inputRequests: { user_context: ask('What context should the prompt use?', 'context') },
          });
    },
  );
}
