/**
 * `response` with `done` called once when its body has been read to the end, failed, or been
 * cancelled by the reader (a client that went away), or at once when it has no body: how long a
 * streamed answer (SSE) keeps something in use.
 */
export function onResponseEnd(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    done();
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (!finished) return controller.enqueue(value);
        end();
        controller.close();
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}
