import { finalize, Observable, ReplaySubject, take } from 'rxjs';
import type { ToolCall } from '../core/index.ts';

/** What a run's `approve` function receives (the agent's `ApprovalRequest` fits). */
export interface ApprovalQuestion {
  toolCall: ToolCall;
}

/**
 * The approvals of one run, answered from outside (an HTTP POST): `approve` is the function the
 * agent calls; it waits until `decide` is called for the same tool call. A question is pending from
 * the run's `approval-requested` event (`expect`) or the `approve` call, whichever comes first, so a
 * decision posted between the two is kept; it survives any number of client disconnects: it lives
 * with the run, not with a connection.
 */
export class RunApprovals {
  readonly #decisions = new Map<string, ReplaySubject<boolean>>();
  readonly #pending = new Map<string, ToolCall>();

  /** The run's `approve`: a cold Observable of the decision for `question.toolCall`. */
  readonly approve = (question: ApprovalQuestion): Observable<boolean> =>
    new Observable<boolean>((subscriber) => {
      const { id } = question.toolCall;
      this.#pending.set(id, question.toolCall);
      return this.#decision(id)
        .pipe(
          take(1),
          finalize(() => {
            this.#pending.delete(id);
            this.#decisions.delete(id);
          }),
        )
        .subscribe(subscriber);
    });

  /** Marks `toolCall` as waiting for a decision (the run announced it). */
  expect(toolCall: ToolCall): void {
    this.#pending.set(toolCall.id, toolCall);
  }

  /** Forgets every question (the run ended). */
  clear(): void {
    this.#pending.clear();
    for (const decision of this.#decisions.values()) decision.complete();
    this.#decisions.clear();
  }

  /** The tool calls waiting for a decision, oldest first. */
  pending(): ToolCall[] {
    return [...this.#pending.values()];
  }

  /**
   * Answers the question about `toolCallId`.
   * @returns whether a question was waiting for it
   */
  decide(toolCallId: string, approved: boolean): boolean {
    if (!this.#pending.has(toolCallId)) return false;
    this.#decision(toolCallId).next(approved);
    return true;
  }

  #decision(id: string): ReplaySubject<boolean> {
    let decision = this.#decisions.get(id);
    if (!decision) {
      decision = new ReplaySubject<boolean>(1);
      this.#decisions.set(id, decision);
    }
    return decision;
  }
}
