import {
  ApprovalNotPendingError,
  ReplayExpiredError,
  RunNotFoundError,
  type RxAgentError,
  TooManyRunsError,
} from '../core/index.ts';

/** The HTTP answer for a failed run request: a status and a JSON body `fromSSE` reads back. */
export interface RunErrorAnswer {
  status: number;
  body: { error: { name: string; code: string; message: string; runId?: string; lastEventId?: string } };
}

/**
 * The status and JSON body for an error of a run request: 404 for `RunNotFoundError`, 410 for
 * `ReplayExpiredError`, 503 for `TooManyRunsError`, 409 for `ApprovalNotPendingError`, 500 (without the message) for anything else.
 * `fromSSE` turns the first two back into the same error classes.
 * @example const { status, body } = runErrorAnswer(error); res.writeHead(status).end(JSON.stringify(body));
 */
export function runErrorAnswer(error: unknown): RunErrorAnswer {
  if (RunNotFoundError.is(error)) return answer(404, error, { runId: error.runId });
  if (ReplayExpiredError.is(error))
    return answer(410, error, { runId: error.runId, lastEventId: error.lastEventId });
  if (TooManyRunsError.is(error)) return answer(503, error, {});
  if (ApprovalNotPendingError.is(error)) return answer(409, error, { runId: error.runId });
  return {
    status: 500,
    body: { error: { name: 'Error', code: 'internal_error', message: 'Internal error' } },
  };
}

/**
 * The same answer as a Web `Response`, for fetch-style servers.
 * @example catch (error) { return runErrorResponse(error); }
 */
export function runErrorResponse(error: unknown): Response {
  const { status, body } = runErrorAnswer(error);
  return Response.json(body, { status });
}

function answer(
  status: number,
  error: RxAgentError,
  extra: { runId?: string; lastEventId?: string },
): RunErrorAnswer {
  return {
    status,
    body: { error: { name: error.name, code: error.code, message: error.message, ...extra } },
  };
}
