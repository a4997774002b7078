import type { DurableRunOptions } from '../agent/durable/index.ts';
import type { AgentInput } from '../agent/index.ts';
import { InvalidRequestError, type Message } from '../core/index.ts';
import type { Actor } from '../security/actor.ts';
import { messageShapeProblem } from '../sessions/message-shape.ts';
import { parseTagged, stringifyTagged } from '../sessions/tagged-json.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const refuse = (option: string, message: string): never => {
  throw new InvalidRequestError(`rxagent/bullmq: ${message}`, { option });
};

/**
 * The messages of a run's input, each checked as a stored message is.
 * @throws InvalidRequestError (option `input`) for anything that is not a message
 */
export function inputMessages(input: AgentInput): Message[] {
  const messages: unknown[] =
    typeof input === 'string'
      ? [{ role: 'user', content: input }]
      : Array.isArray(input)
        ? [...(input as unknown[])]
        : [input];
  if (messages.length === 0) refuse('input', 'a run needs input');
  for (const message of messages) {
    const problem = messageShapeProblem(message);
    if (problem) refuse('input', `not a message: ${problem}`);
  }
  return messages as Message[];
}

const TOOL_CHOICES: ReadonlySet<unknown> = new Set(['auto', 'none', 'required']);

/**
 * The serialisable options of a durable run, checked.
 * @throws InvalidRequestError naming the option that is wrong
 */
export function durableOptions(options: Record<string, unknown>): DurableRunOptions {
  const { system, toolChoice, maxSteps, maxCostUsd, onLimit, metadata } = options;
  const out: Record<string, unknown> = {};
  if (system !== undefined) {
    if (typeof system !== 'string') refuse('system', 'system must be a string');
    out.system = system;
  }
  if (toolChoice !== undefined) {
    const named = isObject(toolChoice) && typeof toolChoice.name === 'string';
    if (!named && !TOOL_CHOICES.has(toolChoice)) refuse('toolChoice', 'toolChoice is not a tool choice');
    out.toolChoice = toolChoice;
  }
  if (maxSteps !== undefined) {
    if (!Number.isSafeInteger(maxSteps) || (maxSteps as number) < 1)
      refuse('maxSteps', 'maxSteps must be a positive integer');
    out.maxSteps = maxSteps;
  }
  if (maxCostUsd !== undefined) {
    if (typeof maxCostUsd !== 'number' || !(maxCostUsd > 0) || !Number.isFinite(maxCostUsd))
      refuse('maxCostUsd', 'maxCostUsd must be a positive number');
    out.maxCostUsd = maxCostUsd;
  }
  if (onLimit !== undefined) {
    if (onLimit !== 'error' && onLimit !== 'stop') refuse('onLimit', "onLimit must be 'error' or 'stop'");
    out.onLimit = onLimit;
  }
  if (metadata !== undefined) {
    if (!isObject(metadata)) refuse('metadata', 'metadata must be an object');
    out.metadata = plainData('metadata', metadata);
  }
  return out as DurableRunOptions;
}

/**
 * The actor as plain data (what a queue can keep).
 * @throws InvalidRequestError (option `actor`) for an actor without a string id, or not plain data
 */
export function plainActor(actor: Actor | undefined): Actor | undefined {
  if (actor === undefined) return undefined;
  // An empty id would read as no owner: the run (and its session) open to anyone.
  if (!isObject(actor) || typeof actor.id !== 'string' || actor.id === '')
    refuse('actor', 'an actor needs a non-empty string id');
  return plainData('actor', actor) as Actor;
}

/** `value` through its stored form: what a worker will get back (functions and classes refused). */
function plainData(option: string, value: unknown): unknown {
  let text: string;
  try {
    text = stringifyTagged(value);
  } catch (cause) {
    throw new InvalidRequestError(`rxagent/bullmq: ${option} is not plain data`, { option, cause });
  }
  if (text === undefined) refuse(option, `${option} is not plain data`);
  return parseTagged(text);
}
