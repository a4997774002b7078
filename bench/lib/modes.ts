/** Every benchmark mode, in the order they run. */
export const MODES = ['text', 'tools', 'concurrent', 'anthropic-text', 'anthropic-tools'] as const;

/** One benchmark mode's name. */
export type Mode = (typeof MODES)[number];

/** What a mode streams: wire format, shape, and how many streams run at once in one process. */
export interface ModeSpec {
  mode: Mode;
  wire: 'openai' | 'anthropic';
  kind: 'text' | 'tools';
  /** Streams run concurrently in one runner process. */
  streams: number;
  /** Content deltas (text tokens or tool-argument fragments) per stream. */
  deltasPerStream: number;
  /**
   * Streams in each of the warm-up and warm passes (see `runner-harness.ts`). Equal to `streams`
   * except in `concurrent`, where a full second and third pass would triple the mode's runtime.
   */
  warmStreams: number;
}

/** The shape of every mode. */
export const MODE_SPECS: Readonly<Record<Mode, ModeSpec>> = {
  text: { mode: 'text', wire: 'openai', kind: 'text', streams: 1, deltasPerStream: 20_000, warmStreams: 1 },
  tools: {
    mode: 'tools',
    wire: 'openai',
    kind: 'tools',
    streams: 1,
    deltasPerStream: 20_000,
    warmStreams: 1,
  },
  concurrent: {
    mode: 'concurrent',
    wire: 'openai',
    kind: 'text',
    streams: 200,
    deltasPerStream: 2_000,
    warmStreams: 20,
  },
  'anthropic-text': {
    mode: 'anthropic-text',
    wire: 'anthropic',
    kind: 'text',
    streams: 1,
    deltasPerStream: 20_000,
    warmStreams: 1,
  },
  'anthropic-tools': {
    mode: 'anthropic-tools',
    wire: 'anthropic',
    kind: 'tools',
    streams: 1,
    deltasPerStream: 20_000,
    warmStreams: 1,
  },
};

/** `true` when `value` names a mode. */
export const isMode = (value: string): value is Mode => (MODES as readonly string[]).includes(value);

/** The model id every runner asks for (the server ignores it; it only has to look real). */
export const modelIdFor = (spec: ModeSpec): string =>
  spec.wire === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-5';

/**
 * The base URL a client library is given for a mode. The mode travels in the path, so one server
 * serves every mode: OpenAI clients post to `{origin}/{mode}/v1/chat/completions`, Anthropic
 * clients to `{origin}/{mode}/v1/messages`.
 * @param style `v1` for clients that append `/chat/completions` or `/messages` (openai SDK, AI SDK,
 *   rxagent's openai), `root` for clients that append `/v1/messages` themselves (rxagent's anthropic).
 */
export const baseURLFor = (origin: string, spec: ModeSpec, style: 'v1' | 'root'): string =>
  style === 'v1' ? `${origin}/${spec.mode}/v1` : `${origin}/${spec.mode}`;

/** The full endpoint URL for a mode. */
export const endpointFor = (origin: string, spec: ModeSpec): string =>
  `${baseURLFor(origin, spec, 'v1')}/${spec.wire === 'openai' ? 'chat/completions' : 'messages'}`;

/** Tool definitions sent in the tool modes (JSON Schema; the server does not read them). */
export const BENCH_TOOLS = [
  {
    name: 'get_weather',
    description: 'Weather forecast for several places.',
    parameters: { type: 'object', properties: { query: { type: 'string' }, items: { type: 'array' } } },
  },
  {
    name: 'search_docs',
    description: 'Search the document index.',
    parameters: { type: 'object', properties: { query: { type: 'string' }, items: { type: 'array' } } },
  },
] as const;
