import { randomUUID } from 'node:crypto';
import type { Client, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { ApprovalRequest } from '../tools/index.ts';
import { bounded } from './bounded-handler.ts';

/** Elicitations of one server put to the approver at once; past it one is refused, not queued. */
export const MAX_CONCURRENT_ELICITATIONS = 4;

/** Decides what a server asks through elicitation, as the host decides tool approvals. */
export type McpElicitationApprover = (request: ApprovalRequest) => boolean | PromiseLike<boolean>;

type FormParams = Extract<ElicitRequest['params'], { requestedSchema: unknown }>;

/**
 * Answers a yes/no elicitation (a form whose required fields are all booleans, or none) through
 * the approval channel: the approver sees a call named `<server>:elicitation` whose arguments are
 * the message and the form; yes accepts with every boolean field `true`, no declines. A form that
 * asks for anything else (text, numbers, a URL to open) cannot be answered yes or no: declined.
 */
export async function answerElicitation(
  server: string,
  approve: McpElicitationApprover,
  params: ElicitRequest['params'],
  signal: AbortSignal,
): Promise<ElicitResult> {
  if (!('requestedSchema' in params)) return { action: 'decline' };
  const { properties = {}, required = [] } = (params as FormParams).requestedSchema;
  const booleans = Object.entries(properties).filter(([, schema]) => schema.type === 'boolean');
  if (required.some((name) => properties[name]?.type !== 'boolean')) return { action: 'decline' };
  const approved = await approve({
    toolCall: {
      id: `elicitation-${randomUUID()}`,
      name: `${server}:elicitation`,
      arguments: { message: params.message, requestedSchema: (params as FormParams).requestedSchema },
    },
    actor: undefined,
    signal,
  });
  if (!approved) return { action: 'decline' };
  return { action: 'accept', content: Object.fromEntries(booleans.map(([name]) => [name, true])) };
}

/**
 * Offers form elicitation on `client`, answered by `approve` (see `McpCommonOptions.elicitation`):
 * at most `MAX_CONCURRENT_ELICITATIONS` of the server's requests wait on the approver at once.
 */
export function answerElicitations(client: Client, server: string, approve: McpElicitationApprover): void {
  client.setRequestHandler(
    'elicitation/create',
    bounded(MAX_CONCURRENT_ELICITATIONS, 'elicitation', (request, ctx) =>
      answerElicitation(server, approve, request.params, ctx.mcpReq.signal),
    ),
  );
}
