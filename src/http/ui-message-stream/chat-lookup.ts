import type { Actor } from '../../security/index.ts';
import type { Runs } from '../runs.ts';
import type { ChatRun, ChatRuns } from './chat-runs.ts';

/** How `chatHandler` finds a chat and the run that answers it. */
export interface ChatLookup {
  /** The chat's entry (`null` for a chat nobody started), or `undefined` when it is another actor's (refused). */
  chatOf(chatId: string, actor: Actor | undefined): Promise<ChatRun | null | undefined>;
  /** The chat's run while it runs or waits. */
  active(entry: ChatRun | null): Promise<string | undefined>;
}

/** A {@link ChatLookup} on `chatRuns` (which run answers each chat) and `runs` (their status). */
export function chatLookup(chatRuns: ChatRuns, runs: Runs): ChatLookup {
  return {
    async chatOf(chatId, actor) {
      const entry = await chatRuns.get(chatId);
      if (entry?.owner !== undefined && entry.owner !== actor?.id) return undefined;
      return entry ?? null;
    },
    async active(entry) {
      if (!entry) return undefined;
      const status = await runs.status(entry.runId);
      return status === 'running' || status === 'awaiting-approval' || status === 'queued'
        ? entry.runId
        : undefined;
    },
  };
}
