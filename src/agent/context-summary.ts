import { type Message, message } from '../core/index.ts';
import { answerOrphans } from './answer-orphans.ts';

/** The metadata key marking a summary message, and how many session messages it replaces. */
export const SUMMARY_KEY = 'rxagentSummary';

/** How many of the session's first messages a summary message replaces, or `undefined` for others. */
export function summaryCovers(candidate: Message): number | undefined {
  const mark = candidate.metadata?.[SUMMARY_KEY];
  if (typeof mark !== 'object' || mark === null) return undefined;
  const covers = (mark as { covers?: unknown }).covers;
  return typeof covers === 'number' && Number.isSafeInteger(covers) && covers >= 0 ? covers : undefined;
}

/**
 * A summary message: a system message with the summary's text, marked in its metadata with the
 * number of the session's first messages it stands for.
 */
export function summaryMessage(text: string, covers: number): Message {
  return message({
    role: 'system',
    content: `Summary of the earlier conversation:\n${text}`,
    metadata: { [SUMMARY_KEY]: { covers } },
  });
}

/** One message of the history a request may send, with its index in the session. */
export interface IndexedMessage {
  readonly index: number;
  readonly message: Message;
}

/** What a step may send of a run's history: the newest summary, and the messages after it covers. */
export interface ContextView {
  readonly summary: Message | undefined;
  /** How many of the session's first messages the summary stands for (0 without one). */
  readonly covered: number;
  /**
   * The history after what the summary covers, summaries left out, each with its session index;
   * calls without a result answered and results without a call left out (`answerOrphans`).
   */
  readonly older: readonly IndexedMessage[];
}

/**
 * The view of `history` plus the run's `prelude` (a summary made in this run, to be stored at
 * `history.length`): the newest summary wins and the messages it covers are left out.
 */
export function contextView(history: readonly Message[], prelude: readonly Message[]): ContextView {
  let summary: Message | undefined;
  let covered = 0;
  for (const candidate of [...history, ...prelude]) {
    const covers = summaryCovers(candidate);
    if (covers !== undefined && covers >= covered) {
      summary = candidate;
      covered = covers;
    }
  }
  const older: IndexedMessage[] = [];
  for (let index = covered; index < history.length; index++) {
    const item = history[index] as Message;
    if (summaryCovers(item) === undefined) older.push({ index, message: item });
  }
  return { summary, covered, older: answerOrphans(older) };
}

/** The messages of a view with the run's own, as a request sends them. */
export function viewMessages(view: ContextView, added: readonly Message[]): Message[] {
  const messages: Message[] = view.summary ? [view.summary] : [];
  for (const item of view.older) messages.push(item.message);
  messages.push(...added);
  return messages;
}
