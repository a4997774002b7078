import type { ChatRequest } from '../../core/index.ts';

/** What OpenAI, Anthropic, Gemini and Ollama accept as a tool name. */
export const WIRE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A wire format's rule for tool names: what it accepts, and the characters to replace. */
export interface ToolNameRule {
  /** A name the wire accepts (at most 64 characters). */
  valid: RegExp;
  /** One character the wire refuses (global). */
  refused: RegExp;
  /** Put before an encoded name that must start with a letter. */
  prefix: string;
}

/** The rule of OpenAI, Anthropic, Gemini and Ollama. */
export const DEFAULT_TOOL_NAME_RULE: ToolNameRule = {
  valid: WIRE_TOOL_NAME,
  refused: /[^a-zA-Z0-9_-]/g,
  prefix: '',
};

/** Bedrock Converse: `^[a-zA-Z][a-zA-Z0-9_]*$`, at most 64 characters. */
export const BEDROCK_TOOL_NAME_RULE: ToolNameRule = {
  valid: /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/,
  refused: /[^a-zA-Z0-9_]/g,
  prefix: 't',
};

/** Tool names one request uses, mapped to names the wire accepts and back. */
export interface ToolNameCodec {
  /** The wire name of `name`: the name itself when the wire accepts it. */
  encode(name: string): string;
  /** The caller's name of a wire name; a name the codec never encoded comes back unchanged. */
  decode(wireName: string): string;
}

// FNV-1a, 32 bits: a short stable tag that keeps two long names with one prefix apart.
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * A codec over the names `names` (pure apart from its own table). A name the wire accepts is sent
 * as it is; any other (a `.` from an MCP server, a space, more than 64 characters) becomes its
 * allowed characters (others as `_`) cut to 55, then `_` and an 8-digit hash: at most 64
 * characters, always matching the rule (by default {@link WIRE_TOOL_NAME}; a rule may put a
 * prefix first, for wires whose names start with a letter). Names the wire accepts are reserved first,
 * and an encoded name that meets a taken one is hashed again, so decoding is exact.
 * @example toolNameCodec(['github.search']).encode('github.search') // → 'github_search_1a2b3c4d'
 */
export function toolNameCodec(
  names: Iterable<string>,
  rule: ToolNameRule = DEFAULT_TOOL_NAME_RULE,
): ToolNameCodec {
  const toWire = new Map<string, string>();
  const fromWire = new Map<string, string>();
  const pending: string[] = [];
  for (const name of names) {
    if (rule.valid.test(name)) {
      toWire.set(name, name);
      fromWire.set(name, name);
    } else pending.push(name);
  }
  const add = (name: string): string => {
    const known = toWire.get(name);
    if (known !== undefined) return known;
    if (rule.valid.test(name) && !fromWire.has(name)) {
      toWire.set(name, name);
      fromWire.set(name, name);
      return name;
    }
    const stem = `${rule.prefix}${name.replace(rule.refused, '_')}`.slice(0, 55);
    let wire = `${stem}_${hash(name)}`;
    for (let n = 1; fromWire.has(wire); n++) wire = `${stem}_${hash(`${name}#${n}`)}`;
    toWire.set(name, wire);
    fromWire.set(wire, name);
    return wire;
  };
  for (const name of pending) add(name);
  return {
    encode: add,
    decode: (wireName) => fromWire.get(wireName) ?? wireName,
  };
}

/**
 * The codec of one request: the names of its tools, its forced tool, and every tool call in its
 * history (so earlier calls are sent under the same wire names).
 */
export function requestToolNames(request: ChatRequest, rule?: ToolNameRule): ToolNameCodec {
  const names: string[] = [];
  for (const tool of request.tools ?? []) names.push(tool.name);
  if (typeof request.toolChoice === 'object') names.push(request.toolChoice.name);
  if (typeof request.messages !== 'string') {
    for (const message of request.messages) for (const call of message.toolCalls ?? []) names.push(call.name);
  }
  return toolNameCodec(names, rule);
}
