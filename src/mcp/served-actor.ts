import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { Actor } from '../security/index.ts';

const ACTOR = 'rxagent.actor';

/** The `AuthInfo` that carries an authenticated actor from the HTTP layer to the tool call. */
export function authInfoFor(actor: Actor, token: string): AuthInfo {
  return { token, clientId: actor.id, scopes: [], extra: { [ACTOR]: actor } };
}

/** The actor `authenticate` returned for this request, if any. */
export function actorOf(ctx: ServerContext): Actor | undefined {
  const actor = ctx.http?.authInfo?.extra?.[ACTOR];
  return typeof actor === 'object' && actor !== null && typeof Reflect.get(actor, 'id') === 'string'
    ? (actor as Actor)
    : undefined;
}
