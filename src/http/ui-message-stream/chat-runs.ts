/**
 * Which run answers each chat now (the chat's id is the AI SDK's `id`): a resume GET and a Stop
 * find the run through it. Share one (e.g. on Redis) between app servers behind a load balancer.
 */
export interface ChatRuns {
  get(chatId: string): Promise<string | undefined> | string | undefined;
  set(chatId: string, runId: string): Promise<void> | void;
}

/**
 * {@link ChatRuns} in this process's memory, holding at most `limit` chats (the oldest forgotten).
 * @param limit chats remembered @default 10_000
 */
export function memoryChatRuns(limit = 10_000): ChatRuns {
  const runs = new Map<string, string>();
  return {
    get: (chatId) => runs.get(chatId),
    set: (chatId, runId) => {
      runs.delete(chatId);
      runs.set(chatId, runId);
      if (runs.size > limit) runs.delete(runs.keys().next().value!);
    },
  };
}
