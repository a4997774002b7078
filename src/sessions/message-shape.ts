import type { Message } from '../core/index.ts';

const ROLES: ReadonlySet<unknown> = new Set(['system', 'user', 'assistant', 'tool']);

type Check = (value: Record<string, unknown>) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
const isData = (value: unknown) => typeof value === 'string' || value instanceof Uint8Array;
const optional = (value: unknown, test: (value: unknown) => boolean) => value === undefined || test(value);

// One check per content part type: a type added to `ContentPart` gets its line here.
const PART_CHECKS: Readonly<Record<string, Check>> = {
  text: (part) => (typeof part['text'] === 'string' ? undefined : 'a text part needs text'),
  image: (part) =>
    optional(part['url'], (url) => typeof url === 'string' || url instanceof URL) &&
    optional(part['data'], isData) &&
    optional(part['mediaType'], (type) => typeof type === 'string') &&
    (part['url'] !== undefined || part['data'] !== undefined)
      ? undefined
      : 'an image part needs a url or data',
  file: (part) =>
    isData(part['data']) && typeof part['mediaType'] === 'string'
      ? undefined
      : 'a file part needs data and mediaType',
};

function contentProblem(content: unknown): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return 'content must be a string or an array of parts';
  for (const part of content) {
    if (!isObject(part) || typeof part['type'] !== 'string')
      return 'a content part must be an object with a type';
    const check = Object.hasOwn(PART_CHECKS, part['type']) ? PART_CHECKS[part['type']] : undefined;
    if (!check) return `unknown content part type ${JSON.stringify(part['type'])}`;
    const problem = check(part);
    if (problem) return problem;
  }
  return undefined;
}

function toolCallProblem(call: unknown): string | undefined {
  if (!isObject(call) || typeof call['id'] !== 'string' || typeof call['name'] !== 'string')
    return 'a tool call needs a string id and name';
  if (!isObject(call['arguments'])) return 'tool call arguments must be an object';
  const invalid = call['invalidArguments'];
  if (invalid !== undefined && !(isObject(invalid) && typeof invalid['raw'] === 'string'))
    return 'invalidArguments must hold the raw text';
  return undefined;
}

/**
 * Why `value` is not a `Message` (role, content and tool fields of the right types), or
 * `undefined` when it is one. Used on what stores read back and on what they are asked to append,
 * so data that is not a message never reaches a model.
 * @example messageShapeProblem({ role: 'wizard', content: 42 }) // 'unknown role "wizard"'
 */
export function messageShapeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'a message must be an object';
  if (!ROLES.has(value['role'])) return `unknown role ${JSON.stringify(value['role'])}`;
  const content = contentProblem(value['content']);
  if (content) return content;
  const calls = value['toolCalls'];
  if (calls !== undefined) {
    if (!Array.isArray(calls)) return 'toolCalls must be an array';
    for (const call of calls) {
      const problem = toolCallProblem(call);
      if (problem) return problem;
    }
  }
  if (value['role'] === 'tool' && typeof value['toolCallId'] !== 'string')
    return 'a tool message needs a string toolCallId';
  if (!optional(value['toolCallId'], (id) => typeof id === 'string')) return 'toolCallId must be a string';
  if (!optional(value['isError'], (flag) => typeof flag === 'boolean')) return 'isError must be a boolean';
  if (!optional(value['cache'], (flag) => typeof flag === 'boolean')) return 'cache must be a boolean';
  if (!optional(value['metadata'], isObject)) return 'metadata must be an object';
  return undefined;
}

/**
 * `value` as a `Message`, or a `TypeError` saying what is wrong with it.
 * @example assertMessageShape(JSON.parse(text))
 */
export function assertMessageShape(value: unknown): Message {
  const problem = messageShapeProblem(value);
  if (problem) throw new TypeError(`Not a message: ${problem}`);
  return value as Message;
}
