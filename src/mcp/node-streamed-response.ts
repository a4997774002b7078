import type { ServerResponse } from 'node:http';

/**
 * `response` ready for the SDK's `toNodeHandler` to write to `res`, where its loop falls short for
 * a stream that is quiet (a 2025 session's GET stream, which may carry nothing for minutes):
 * - the headers of an event stream are sent as soon as the loop starts reading, not with the first
 *   event (Node holds `writeHead` until a write), so the client knows its stream is open at once
 *   rather than after the first keep-alive (15 s);
 * - the body is cancelled as soon as `res` closes (the client went away), not when it next has
 *   something to write: the stream would outlive its client until the next keep-alive, holding
 *   its session busy and answering the client's reconnection 409 (one stream per session).
 */
export function nodeStreamedResponse(response: Response, res: ServerResponse): Response {
  const source = response.body;
  if (!source) return response;
  const eventStream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  const reader = source.getReader();
  let ended = false;
  let started = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onClose = () => {
          if (ended) return;
          ended = true;
          reader.cancel().catch(() => undefined);
          controller.close();
        };
        if (res.destroyed) onClose();
        else res.once('close', onClose);
      },
      async pull(controller) {
        // Pulled only when the writer reads (no read-ahead): by then it has written the head.
        if (!started) {
          started = true;
          if (eventStream && !res.destroyed) res.flushHeaders();
        }
        const { done, value } = await reader.read();
        if (ended) return;
        if (!done) return controller.enqueue(value);
        ended = true;
        controller.close();
      },
      cancel(reason) {
        ended = true;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}
