import { createHash } from 'node:crypto';
import { MODE_SPECS, type Mode } from './modes.ts';
// The same mulberry32 the tests split with, so every run streams the same bytes.
import { seededRandom } from '../../test/support/split.ts';

/** One tool call the server streams: its final arguments and the fragments they arrive in. */
export interface FixtureToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  fragments: string[];
}

/** What one stream of a mode carries. */
export interface Fixture {
  tokens: string[];
  toolCalls: FixtureToolCall[];
}

/** What a correct runner must report for a mode (see `bench/lib/verify.ts`). */
export interface Expected {
  streams: number;
  deltas: number;
  textSha: string;
  toolCalls: { id: string; name: string; argsSha: string }[];
  finishReasons: readonly string[];
}

/** sha1 of a string, hex. */
export const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

// Token-like pieces: leading spaces, punctuation, newlines, quotes and backslashes (JSON escapes),
// accented letters (2-byte UTF-8) and an emoji (4-byte UTF-8, a surrogate pair in JS).
const VOCABULARY = [
  ' the',
  ' stream',
  ' of',
  ' tokens',
  ' arrives',
  ' quickly',
  ',',
  '.',
  ' and',
  ' model',
  ' café',
  ' naïve',
  ' Zürich',
  ' —',
  ' "quoted"',
  ' back\\slash',
  '\n\n',
  '\n',
  ' 🚀',
  ' résumé',
  ' is',
  ' a',
  ' in',
  ' to',
  ' JSON',
  ' parse',
  'ing',
  ' event',
  's',
  ' 42',
  ' x',
  ' {',
  '}',
  ' <tag>',
  ' tab\t',
  ' über',
];

/** `count` realistic tokens, deterministic for `seed`. */
export function makeTokens(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)] ?? ' ');
}

/** A JSON object whose serialisation is at least `minLength` characters (ASCII and 2-byte UTF-8 only). */
function makeArgs(minLength: number, seed: number): Record<string, unknown> {
  const random = seededRandom(seed);
  const cities = ['Zürich', 'Lyon', 'Oslo', 'São Paulo', 'Kraków', 'Porto', 'Québec', 'Malmö'];
  const items: Record<string, unknown>[] = [];
  const args = { query: 'forecast with "quotes" and \\ backslashes', units: 'metric', items };
  let length = JSON.stringify(args).length;
  while (length < minLength) {
    const item = {
      id: items.length + 1,
      city: cities[Math.floor(random() * cities.length)] ?? 'Oslo',
      days: 1 + Math.floor(random() * 14),
      precise: random() > 0.5,
      threshold: Math.round(random() * 10_000) / 100,
      note: `line ${items.length}\nwith é and ü`,
    };
    items.push(item);
    length += JSON.stringify(item).length + 1;
  }
  return args;
}

/** Splits `text` into exactly `count` non-empty fragments of jittered length. */
export function splitInto(text: string, count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const step = text.length / count;
  if (step < 2) throw new Error(`cannot split ${text.length} chars into ${count} fragments`);
  const bounds = [0];
  for (let i = 1; i < count; i++)
    bounds.push(Math.floor(i * step) + Math.floor(random() * (Math.floor(step) - 1)));
  bounds.push(text.length);
  return bounds.slice(1).map((end, i) => text.slice(bounds[i], end));
}

function toolCall(id: string, name: string, fragments: number, seed: number): FixtureToolCall {
  const args = makeArgs(fragments * 6, seed);
  return { id, name, args, fragments: splitInto(JSON.stringify(args), fragments, seed + 1) };
}

const cache = new Map<Mode, Fixture>();

/** The content one stream of `mode` carries (built once per process, deterministic). */
export function fixtureFor(mode: Mode): Fixture {
  const cached = cache.get(mode);
  if (cached) return cached;
  const n = MODE_SPECS[mode].deltasPerStream;
  let fixture: Fixture;
  switch (mode) {
    case 'text':
    case 'concurrent':
    case 'anthropic-text':
      fixture = { tokens: makeTokens(n, n), toolCalls: [] };
      break;
    case 'tools':
      fixture = {
        tokens: [],
        toolCalls: [
          toolCall('call_bench_weather_0', 'get_weather', n / 2, 11),
          toolCall('call_bench_search_1', 'search_docs', n / 2, 23),
        ],
      };
      break;
    case 'anthropic-tools':
      fixture = { tokens: [], toolCalls: [toolCall('toolu_bench_01', 'get_weather', n, 31)] };
      break;
    default: {
      const never: never = mode;
      throw new Error(`unknown mode ${String(never)}`);
    }
  }
  cache.set(mode, fixture);
  return fixture;
}

/**
 * What a runner must report for `mode`.
 * @param streams streams in the pass checked @default MODE_SPECS[mode].streams (the cold pass)
 */
export function expectedFor(mode: Mode, streams = MODE_SPECS[mode].streams): Expected {
  const spec = MODE_SPECS[mode];
  const fixture = fixtureFor(mode);
  const finishReasons =
    spec.kind === 'text' ? ['stop', 'end_turn'] : ['tool-calls', 'tool_calls', 'tool_use', 'tool-use'];
  return {
    streams,
    deltas: streams * spec.deltasPerStream,
    textSha: sha1(fixture.tokens.join('')),
    toolCalls: fixture.toolCalls.map((c) => ({
      id: c.id,
      name: c.name,
      argsSha: sha1(JSON.stringify(c.args)),
    })),
    finishReasons,
  };
}
