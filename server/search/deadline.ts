/*
 * When a search must stop: a clock rather than an AbortSignal, since ranking is synchronous and no
 * timer can fire to abort a signal inside it. The search looks at it between its steps and within
 * ranking's loops, and a late one throws SearchCancelled, which the caller turns into a 503.
 */

/** The steps of a search (the first: waiting for its turn), between which (and within ranking's loops) a timed-out search stops. */
export type SearchStage = "queue" | "embed" | "retrieve" | "rank" | "page";

/** When a search must stop, in `performance.now()` milliseconds; undefined = never. */
export type Deadline = number | undefined;

/** Thrown inside a search whose caller timed out: the rest of its work is skipped. */
export class SearchCancelled extends Error {
  constructor(readonly stage: SearchStage) {
    super(`search cancelled before ${stage}`);
  }
}

export function stopIfLate(deadline: Deadline, stage: SearchStage): void {
  if (deadline !== undefined && performance.now() >= deadline) throw new SearchCancelled(stage);
}
