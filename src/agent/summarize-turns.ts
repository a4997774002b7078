import { filter, map, type Observable, take, throwIfEmpty } from 'rxjs';
import {
  type ChatModel,
  type ChatResponse,
  IncompleteStreamError,
  type Message,
  textOf,
  user,
} from '../core/index.ts';

const INSTRUCTIONS =
  'You compress a conversation so it can continue without its earlier part. Write a concise summary ' +
  'of the transcript: facts learned, decisions, tool results that still matter, open tasks and the ' +
  "user's preferences. Write only the summary.";

/** One message as a transcript line: its role, text, tool calls and media placeholders. */
function line(item: Message): string {
  const media = typeof item.content === 'string' ? 0 : item.content.filter((p) => p.type !== 'text').length;
  const calls = (item.toolCalls ?? []).map(
    (call) => ` [called ${call.name}(${JSON.stringify(call.arguments)})]`,
  );
  return `${item.role}: ${textOf(item.content)}${media > 0 ? ` [${media} attachment(s)]` : ''}${calls.join('')}`;
}

/**
 * A summary of `messages` (after the `previous` summary's text, when there is one) by `model`: its
 * response (the summary is its text; its usage and cost count toward the run's). The transcript is cut to its newest `maxChars` characters, so a summary of a long history
 * never overflows the summarizer's own window.
 */
export function summarizeTurns(
  model: ChatModel,
  previous: Message | undefined,
  messages: readonly Message[],
  options: { maxOutputTokens: number; maxChars: number; signal?: AbortSignal },
): Observable<ChatResponse> {
  const lines = messages.map(line).join('\n');
  const earlier = previous ? `${textOf(previous.content)}\n\n` : '';
  const transcript = `${earlier}${lines}`.slice(-options.maxChars);
  return model
    .stream(
      {
        system: INSTRUCTIONS,
        messages: [user(`Transcript:\n${transcript}`)],
        maxOutputTokens: options.maxOutputTokens,
      },
      options.signal ? { signal: options.signal } : {},
    )
    .pipe(
      filter((event) => event.type === 'stream-completed'),
      map((event) => event.response),
      take(1),
      // A summarizer's stream that ends without its response fails the step, never ends it silently.
      throwIfEmpty(() => new IncompleteStreamError('The summarizer ended without a response')),
    );
}
