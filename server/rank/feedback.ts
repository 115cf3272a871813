import { dot } from "../embedding/vector.ts";
import type { RowTerms } from "../text/rank-terms.ts";
import type { Features } from "./features.ts";
import { firstPassScore } from "./score.ts";

/** How many of the first pass's best postings feedback learns from. */
const FEEDBACK_DEPTH = 5;

/**
 * Pseudo-relevance feedback: ranks once without it, takes the best few postings as examples of
 * what the person wants, and sets each candidate's feedback features from its likeness to them.
 */
export function addFeedback(items: Array<{ features: Features; vector: Float32Array; terms: RowTerms }>): void {
  const top = bestFirstPass(items, FEEDBACK_DEPTH);
  if (top.length === 0) return;
  const centroid = new Float32Array(top[0]!.vector.length);
  for (const item of top) for (let i = 0; i < centroid.length; i++) centroid[i]! += item.vector[i]!;
  const norm = Math.hypot(...centroid) || 1;
  const titleCounts = new Map<string, number>();
  for (const item of top) for (const t of item.terms.title) titleCounts.set(t, (titleCounts.get(t) ?? 0) + 1);
  for (const item of items) {
    const likeness = dot(item.vector, centroid);
    const title = item.terms.title;
    let shared = 0;
    for (const t of title) if ((titleCounts.get(t) ?? 0) >= 2) shared++;
    item.features.feedbackCosine = likeness / norm;
    item.features.feedbackTitle = title.size === 0 ? 0 : shared / title.size;
  }
}

// --- internal ---

/**
 * The `depth` items of the best first-pass score, best first, earlier ones first among equals: what a
 * stable sort's first `depth` would be, in one pass (a deep page ranks thousands of candidates).
 */
function bestFirstPass<T extends { features: Features }>(items: T[], depth: number): T[] {
  const best: Array<{ item: T; score: number }> = [];
  for (const item of items) {
    const score = firstPassScore(item.features);
    if (best.length === depth && score <= best[depth - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < score) at--;
    best.splice(at, 0, { item, score });
    if (best.length > depth) best.pop();
  }
  return best.map(({ item }) => item);
}
