/** Ranking metrics over binary judgments, in rank order (index 0 = best). */

/** Relevant results among the first k, divided by k (a short list counts its missing places as misses). */
export function precisionAt(k: number, judgments: boolean[]): number {
  return judgments.slice(0, k).filter(Boolean).length / k;
}

/**
 * nDCG@k with binary gains. The ideal list holds min(k, relevantInData) relevant results, so a query
 * with fewer than k relevant postings can still reach 1; a query with none scores 0.
 */
export function ndcgAt(k: number, judgments: boolean[], relevantInData: number): number {
  const ideal = discountedGain(Array.from({ length: Math.min(k, relevantInData) }, () => true));
  return ideal === 0 ? 0 : discountedGain(judgments.slice(0, k)) / ideal;
}

/** Nearest-rank percentile (p in 0..100) of `values`; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * What a 0–1 score is judged by, over each query's ten best by `logit` (the score is 0.5 at logit 0):
 * the share of relevant results scored 0.5 or more (`recall`), the share of those that are relevant
 * (`precision`), the queries with half their ten relevant but none at 0.5 (a wrong "no close match"),
 * and the results at 0.5 or more of queries whose every result is irrelevant (`absentHigh`).
 */
export function scoreFigures(items: Array<{ query: number; relevant: boolean; absent?: boolean; logit: number }>) {
  const byQuery = Map.groupBy(items, (item) => item.query);
  let relevant = 0, relevantHigh = 0, high = 0, wrongNone = 0, absentHigh = 0;
  for (const all of byQuery.values()) {
    const top = [...all].sort((a, b) => b.logit - a.logit).slice(0, 10);
    const highs = top.filter((item) => item.logit >= 0);
    if (all[0]!.absent) {
      absentHigh += highs.length;
      continue;
    }
    const hits = top.filter((item) => item.relevant).length;
    relevant += hits;
    relevantHigh += highs.filter((item) => item.relevant).length;
    high += highs.length;
    if (hits >= 5 && highs.length === 0) wrongNone++;
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { recall: round(relevantHigh / relevant), precision: round(relevantHigh / Math.max(1, high)), wrongNone, absentHigh };
}

// --- internal ---

function discountedGain(judgments: boolean[]): number {
  return judgments.reduce((sum, relevant, i) => sum + (relevant ? 1 / Math.log2(i + 2) : 0), 0);
}
