/**
 * The durable example's agent: a shop assistant with three tools that show the three kinds of call
 * a durable run treats differently when its worker dies.
 *
 * - `place_order` is not idempotent: placing an order twice charges twice. Each execution is counted
 *   in Redis per tool call id (`<prefix>orders`), outside the worker, so a second execution would show,
 *   and so is each one that finished (`<prefix>orders:finished`), so one cut short shows too.
 * - `check_stock` is `idempotent: true`: a call in doubt after a crash runs again.
 * - `send_receipt` needs a person's approval: the run parks until someone decides, holding no worker.
 *
 * TOOL_DELAY_MS (default 200) is how long each tool takes, so a kill can land mid-tool.
 */
import type { Redis } from 'ioredis';
import {
  Agent,
  type ChatModel,
  defineTool,
  type SessionStore,
  ToolRegistry,
  type ToolInvocationStore,
} from 'rxagent';
import { openai } from 'rxagent/openai';
import { z } from 'zod';

/** What the agent's tools need. */
export interface ShopDependencies {
  model: ChatModel;
  sessions: SessionStore;
  audit: ToolInvocationStore;
  redis: Redis;
  prefix: string;
  toolDelayMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), {
      once: true,
    });
  });

/** The model from OPENAI_BASE_URL (any OpenAI-compatible server), OPENAI_API_KEY and OPENAI_MODEL. */
export function modelFrom(env: NodeJS.ProcessEnv): ChatModel {
  const { OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: baseURL, OPENAI_MODEL: modelId } = env;
  if (!apiKey && !baseURL)
    throw new Error('Set OPENAI_BASE_URL (an OpenAI-compatible server) or OPENAI_API_KEY for the model');
  return openai(modelId ?? 'gpt-4o-mini', { apiKey: apiKey ?? 'none', ...(baseURL ? { baseURL } : {}) });
}

/** The shop assistant, with its tools on a registry that audits every call. */
export function shopAgent(deps: ShopDependencies): Agent {
  const { redis, prefix } = deps;
  const delayMs = deps.toolDelayMs ?? 200;
  const placeOrder = defineTool({
    name: 'place_order',
    description: 'Places an order (charges the customer).',
    input: z.object({ item: z.string(), quantity: z.number().int().positive() }),
    execute: async ({ item, quantity }, { toolCallId, signal }) => {
      // Counted before the work, outside this process: the proof that no order is placed twice.
      await redis
        .multi()
        .hincrby(`${prefix}orders`, toolCallId, 1)
        .rpush(`${prefix}orders:log`, JSON.stringify({ toolCallId, pid: process.pid }))
        .exec();
      await sleep(delayMs, signal);
      // And its end: a call counted but not finished was cut short (its outcome never recorded).
      await redis.hincrby(`${prefix}orders:finished`, toolCallId, 1);
      return { orderId: `order-${toolCallId}`, item, quantity };
    },
  });
  const checkStock = defineTool({
    name: 'check_stock',
    description: 'How many of an item are in stock.',
    input: z.object({ item: z.string() }),
    idempotent: true,
    execute: async ({ item }, { toolCallId, signal }) => {
      await redis.hincrby(`${prefix}stock-checks`, toolCallId, 1);
      await sleep(delayMs, signal);
      return { item, inStock: 3 };
    },
  });
  const sendReceipt = defineTool({
    name: 'send_receipt',
    description: 'Emails the receipt of an order.',
    input: z.object({ orderId: z.string(), to: z.string() }),
    needsApproval: true,
    execute: async ({ orderId, to }, { toolCallId }) => {
      await redis.hincrby(`${prefix}receipts`, toolCallId, 1);
      return { sent: true, orderId, to };
    },
  });
  return new Agent({
    name: 'shop',
    model: deps.model,
    tools: new ToolRegistry({ audit: deps.audit })
      .register(placeOrder)
      .register(checkStock)
      .register(sendReceipt),
    sessions: deps.sessions,
    system: 'You are a shop assistant. Check stock before placing an order; send receipts when asked.',
  });
}
