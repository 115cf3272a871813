import { compareText } from "../text/order.ts";

/*
 * Where a retriever's list ends, the same for both engines: the best `limit` hits by score, equal
 * scores by id (code-unit order). Neither LanceDB nor the copy's kernel says which of several equal
 * rows it keeps at its last place (LanceDB's full-text search kept 4 of 11 tied rows by its own
 * inner order), and the kernel's float32 cosines round differently from the exact ones. So each
 * engine fetches past the cut and fetches more until the rows past it score clearly below it.
 */

/** Rows fetched past `limit`, so a tie or a rounding at the cut is seen whole. */
export const CUT_MARGIN_ROWS = 16;

/** Cosines are compared exactly after a float32 fetch: the fetch's own order is within this of the exact one. */
export const COSINE_ROUNDING = 1e-5;

/** Best first: the higher score, then the smaller id. */
export function byScoreThenId<T extends { row: { id: string } }>(score: (hit: T) => number): (a: T, b: T) => number {
  return (a, b) => score(b) - score(a) || compareText(a.row.id, b.row.id);
}

/**
 * The best `limit` of `hits` (a fetch of `fetched` rows by the fetch's own order, `rounding` within
 * the exact `score`), best first by score then id; undefined when the fetch may have cut rows that
 * belong there (it filled `fetched` and the last kept score is not clearly above the lowest fetched):
 * fetch more and ask again.
 */
export function settledCut<T extends { row: { id: string } }>(hits: T[], limit: number, fetched: number, score: (hit: T) => number, rounding: number): T[] | undefined {
  const sorted = [...hits].sort(byScoreThenId(score));
  if (hits.length < fetched || limit <= 0) return sorted.slice(0, Math.max(0, limit));
  if (sorted.length <= limit) return undefined;
  const lowest = score(sorted[sorted.length - 1]!);
  return score(sorted[limit - 1]!) - lowest > 2 * rounding ? sorted.slice(0, limit) : undefined;
}

/** Fetches `limit` + CUT_MARGIN_ROWS rows, then twice as many until `settledCut` holds. */
export async function fetchSettled<T extends { row: { id: string } }>(
  fetch: (rows: number) => Promise<T[]> | T[], limit: number, score: (hit: T) => number, rounding: number,
): Promise<T[]> {
  for (let rows = limit + CUT_MARGIN_ROWS; ; rows *= 2) {
    const settled = settledCut(await fetch(rows), limit, rows, score, rounding);
    if (settled !== undefined) return settled;
  }
}
