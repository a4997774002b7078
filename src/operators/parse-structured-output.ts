import {
  concatMap,
  connect,
  defer,
  filter,
  from,
  map,
  merge,
  type Observable,
  of,
  type OperatorFunction,
} from 'rxjs';
import {
  isStandardSchema,
  type ResponseFormat,
  type StandardSchemaV1Issue,
  type StandardSchemaV1Result,
  type StreamCompleted,
  type StreamEvent,
  StructuredOutputError,
} from '../core/index.ts';

// A reply some models wrap in a Markdown code fence despite being asked for bare JSON.
const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/;

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  const fenced = FENCE.exec(trimmed);
  try {
    return JSON.parse(fenced ? (fenced[1] as string) : trimmed);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new StructuredOutputError(`The reply is not valid JSON: ${reason}`, {
      text,
      issues: [{ message: reason }],
      cause,
    });
  }
}

function checked(text: string, result: StandardSchemaV1Result<unknown>): unknown {
  if (result.issues === undefined) return result.value;
  const issues: readonly StandardSchemaV1Issue[] = result.issues;
  throw new StructuredOutputError(
    `The reply does not match the schema: ${issues.map((issue) => issue.message).join('; ')}`,
    { text, issues },
  );
}

function withObject(event: StreamCompleted, format: ResponseFormat): Observable<StreamEvent> {
  const { response } = event;
  // A turn that called tools has no reply to parse yet.
  if (response.toolCalls.length > 0) return of(event);
  const completed = (object: unknown): StreamCompleted => ({ ...event, response: { ...response, object } });
  return defer(() => {
    const value = parseJson(response.text);
    const schema = format.schema;
    if (!isStandardSchema(schema)) return of(completed(value));
    const result = schema['~standard'].validate(value);
    // Synchronous validators (zod, valibot) stay synchronous: no extra tick, and virtual time works.
    if (result instanceof Promise) return from(result).pipe(map((r) => completed(checked(response.text, r))));
    return of(completed(checked(response.text, result)));
  });
}

/**
 * Sets `response.object` on the `stream-completed` event of a turn that asked for JSON
 * (`responseFormat`): the reply parsed (a surrounding Markdown code fence is tolerated), then
 * validated by the request's Standard Schema when it gave one (its output value, transforms
 * applied). Unparseable JSON or a mismatch errors the stream with `StructuredOutputError`
 * carrying the text and the issues; a turn that called tools passes unchanged. Without a
 * `responseFormat` the stream is returned as it is.
 * @param format the request's `responseFormat`
 * @example model.stream(request).pipe(parseStructuredOutput(request.responseFormat))
 */
export function parseStructuredOutput(
  format: ResponseFormat | undefined,
): OperatorFunction<StreamEvent, StreamEvent> {
  if (format === undefined) return (source) => source;
  // Deltas pass straight through (no inner Observable per token); only the last event is parsed.
  return connect((events) =>
    merge(
      events.pipe(filter((event) => event.type !== 'stream-completed')),
      events.pipe(
        filter((event): event is StreamCompleted => event.type === 'stream-completed'),
        concatMap((event) => withObject(event, format)),
      ),
    ),
  );
}
