import type { ChatModel } from '../../src/index.ts';
import type { ScriptedResponse } from '../support/transcript-server.ts';

/**
 * The canonical conversation every provider's transcripts encode, in that provider's documented wire
 * format. The contract suite replays each transcript (at random byte splits) through the provider and
 * checks the resulting `StreamEvent`s are the same for every provider.
 *
 * - `text`: text "Hello! How can I help you today?" in ≥ 3 deltas; finish 'stop';
 *   usage input 12, output 9 (total 21).
 * - `reasoning`: reasoning "Let me think. 6 times 7 is 42." in ≥ 2 deltas, then text "42."; finish 'stop';
 *   usage input 20, output 15.
 * - `toolCall`: one call `get_weather` { city: 'Paris' }, id 'call_1' (providers that generate ids: any
 *   non-empty id); arguments in ≥ 2 fragments where the wire format fragments them; finish 'tool-calls';
 *   usage input 30, output 10.
 * - `parallelToolCalls`: `get_weather` { city: 'Paris' } then `get_time` { timezone: 'Europe/Paris' },
 *   ids 'call_1', 'call_2'; finish 'tool-calls'; usage input 30, output 20.
 * - `midStreamError`: text "Hel" then the provider's in-stream error event: an overloaded/server
 *   error whose message contains "Overloaded" → `ApiError` with that message, not retried.
 * - `truncated`: text "Hello" then the body ends without the terminal event → `IncompleteStreamError`.
 * - `rateLimited`: HTTP 429 with `retry-after: 0` and the provider's error JSON (message contains
 *   "Rate limit") — the suite answers `text` on the second request.
 * - `badRequest`: HTTP 400 with the provider's error JSON (message contains "Invalid request").
 */
export interface ContractFixture {
  name: string;
  /** A model pointed at the transcript server. */
  createModel(
    baseURL: string,
    options: { retry: false | { maxRetries: number; initialDelayMs: number } },
  ): ChatModel;
  transcripts: {
    text: string;
    /** Omitted where the provider has no reasoning stream. */
    reasoning?: string;
    toolCall: string;
    parallelToolCalls: string;
    midStreamError: string;
    truncated: string;
    rateLimited: ScriptedResponse;
    badRequest: ScriptedResponse;
  };
  /** Response headers for streaming bodies (content type). */
  streamHeaders: Record<string, string>;
  /** Extra byte framing: a provider with a binary wire format encodes the transcript here. */
  encode?: (transcript: string) => Uint8Array;
  /**
   * Asserts the request body the provider sent for the conversation user('Weather in Paris?') →
   * assistant('', [get_weather {city:'Paris'} id 'call_1']) → toolMessage('call_1', '{"tempC":18}'),
   * with tool spec get_weather, carries the tool call and its result in the provider's format.
   */
  assertToolResultRequest(body: unknown): void;
}
