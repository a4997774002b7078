import type { Agent } from '../../agent/index.ts';
import type { Message } from '../../core/index.ts';
import type { Actor } from '../../security/index.ts';
import type { RunRegistry } from '../run-registry.ts';
import type { Runs } from '../runs.ts';
import { claimSession } from './claim-session.ts';

/** A turn of a chat to start a run for. */
export interface ChatTurn {
  /** The chat's id (useChat's `id`): the session id when the agent keeps sessions. */
  chatId: string;
  /** The messages to run on: the whole conversation, or only the new user message with sessions. */
  messages: Message[];
  actor?: Actor;
}

/** Runs that `chatHandler` serves, and how a turn starts one (e.g. `durableRuns`). */
export interface ChatRunner {
  runs: Runs;
  /** Starts a run for `turn`; resolves to its id. */
  start(turn: ChatTurn): Promise<string> | string;
  /** Whether the runs keep the conversation (only the new user message is sent). @default false */
  sessions?: boolean;
  /**
   * Whether `actor` may send to a chat this server does not know (another server's, or one from
   * before a restart), claiming it when it is nobody's; kept where the conversation is kept, so
   * a chat id cannot open another actor's conversation. @default always
   */
  claim?(chatId: string, actor: Actor | undefined): Promise<boolean>;
}

/**
 * The `ChatRunner` of an `Agent` whose runs live in `registry`: a turn is a run of the agent (the
 * chat's id its session id when it keeps sessions, whose owner the chat's claim records), started
 * through `admit` so an actor's runs are counted on every app server sharing the registry's store.
 */
export function agentChatRunner(agent: Agent, registry: RunRegistry): ChatRunner {
  const store = agent.options.sessions;
  const sessions = store !== undefined;
  return {
    runs: registry,
    sessions,
    ...(store
      ? { claim: (chatId: string, actor: Actor | undefined) => claimSession(store, chatId, actor) }
      : {}),
    start: async ({ chatId, messages, actor }) =>
      (
        await registry.admit(
          ({ approve, signal }) =>
            agent.run(messages, {
              approve,
              signal,
              ...(sessions ? { sessionId: chatId } : {}),
              ...(actor ? { actor } : {}),
            }),
          { actor },
        )
      ).id,
  };
}
