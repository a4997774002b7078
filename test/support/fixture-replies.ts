import type { ScriptedResponse } from './transcript-server.ts';

/** Scripted answers made from one provider's fixture files. */
export interface FixtureReplies {
  /** A 200 server-sent-events answer with the fixture as its body. */
  reply(name: string): ScriptedResponse;
  /** An error answer with the fixture as its JSON body, plus any extra headers (`retry-after`). */
  errorReply(status: number, name: string, headers?: Record<string, string>): ScriptedResponse;
}

/**
 * Builds `reply` / `errorReply` for a provider's fixtures, each sent as a single chunk.
 * @param read the text of a fixture file, by name
 * @param jsonContentType the content type the provider sends its error bodies with
 * @default jsonContentType 'application/json'
 * @example const { reply, errorReply } = fixtureReplies(anthropicTranscript);
 */
export function fixtureReplies(
  read: (name: string) => string,
  jsonContentType = 'application/json',
): FixtureReplies {
  return {
    reply: (name) => ({ headers: { 'content-type': 'text/event-stream' }, chunks: [read(name)] }),
    errorReply: (status, name, headers = {}) => ({
      status,
      headers: { 'content-type': jsonContentType, ...headers },
      chunks: [read(name)],
    }),
  };
}
