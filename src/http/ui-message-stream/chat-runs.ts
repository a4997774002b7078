/** The run that answers a chat now, and the actor the chat belongs to (its first one). */
export interface ChatRun {
  runId: string;
  /** The id of the actor who started the chat; another actor is refused. */
  owner?: string | undefined;
}

/**
 * Which run answers each chat now (the chat's id is the AI SDK's `id`), and whose chat it is: a
 * resume GET and a Stop find the run through it. Share one (e.g. on Redis) between app servers
 * behind a load balancer.
 */
export interface ChatRuns {
  get(chatId: string): Promise<ChatRun | undefined> | ChatRun | undefined;
  set(chatId: string, run: ChatRun): Promise<void> | void;
}

/**
 * {@link ChatRuns} in this process's memory, holding at most `limit` chats (the oldest forgotten).
 * @param limit chats remembered @default 10_000
 */
export function memoryChatRuns(limit = 10_000): ChatRuns {
  const runs = new Map<string, ChatRun>();
  return {
    get: (chatId) => runs.get(chatId),
    set: (chatId, run) => {
      runs.delete(chatId);
      runs.set(chatId, run);
      if (runs.size > limit) runs.delete(runs.keys().next().value!);
    },
  };
}
