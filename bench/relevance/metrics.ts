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

// --- internal ---

function discountedGain(judgments: boolean[]): number {
  return judgments.reduce((sum, relevant, i) => sum + (relevant ? 1 / Math.log2(i + 2) : 0), 0);
}
