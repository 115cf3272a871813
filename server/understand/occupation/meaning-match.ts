import { fallbackVector } from "../../embedding/embedder.ts";
import type { OccupationMatch } from "./occupation-match.ts";
import type { OccupationVectors } from "./occupation-vectors.ts";

/*
 * Occupations found by what a query means: a paraphrase ("look after invoices, taxes and the books")
 * shares few words with the titles it describes, but its vector lies near the occupation's texts.
 * An occupation's fit is the mean of its nearest text's cosine (one phrase that says it all) and its
 * mean vector's (the whole occupation); a fit only counts as far as it stands out from the rest of the
 * knowledge base, since every job text is somewhat near every job query.
 */

/**
 * Of the best `limit` occupations by meaning, those that fit at least MIN_FIT and stand out from the rest
 * by MIN_STANDOUT, best first (ties in knowledge-base order), never `named`, confidence in (0,
 * MAX_CONFIDENCE]. None for a query vector the embedder could not place (no known word). Deterministic
 * for a given embedder.
 */
export function matchByMeaning(vectors: OccupationVectors, query: Float32Array, limit = 3): OccupationMatch[] {
  const d = vectors.dimension;
  if (isFallback(query, d)) return [];
  const n = vectors.means.length / d;
  const nearest = new Float64Array(n).fill(-1);
  const scores = vectors.texts.scores(query);
  for (let row = 0; row < scores.length; row++) {
    const at = vectors.textOccupation[row]!;
    if (scores[row]! > nearest[at]!) nearest[at] = scores[row]!;
  }
  const fit = new Float64Array(n);
  for (let at = 0; at < n; at++) {
    let whole = 0;
    for (let j = 0; j < d; j++) whole += query[j]! * vectors.means[at * d + j]!;
    fit[at] = (nearest[at]! + whole) / 2;
  }
  const order = Array.from({ length: n }, (_, at) => at).sort((a, b) => fit[b]! - fit[a]! || a - b);
  const rest = fit[order[Math.min(n, REST_RANK) - 1]!]!;
  return order
    .slice(0, limit)
    .filter((at) => fit[at]! >= MIN_FIT && fit[at]! - rest >= MIN_STANDOUT)
    .map((at) => ({ occupation: at, confidence: Math.min(MAX_CONFIDENCE, (fit[at]! - rest) * PER_STANDOUT), named: false }));
}

/**
 * The occupations found by words and by meaning as one list, best first, at most `limit`. An occupation
 * both find is surer than either says (1 − (1 − a)(1 − b)), keeping the word match's `named`; one found
 * by meaning alone only takes a place no word match holds. Letting meaning displace word matches lost
 * more than it won on the judged paraphrases: a near neighbour ("Bookkeeper") pushed out the job the
 * words had found ("Accountant"), which the data holds far more of.
 */
export function withMeaning(byWords: OccupationMatch[], byMeaning: OccupationMatch[], limit = 3): OccupationMatch[] {
  const meaning = new Map(byMeaning.map((m) => [m.occupation, m.confidence]));
  const kept = byWords.map((m) => {
    const other = meaning.get(m.occupation);
    return other === undefined ? m : { ...m, confidence: 1 - (1 - m.confidence) * (1 - other) };
  });
  const added = byMeaning.filter((m) => !byWords.some((w) => w.occupation === m.occupation));
  return [...kept, ...added.slice(0, Math.max(0, limit - kept.length))].sort(
    (a, b) => b.confidence - a.confidence || a.occupation - b.occupation,
  );
}

// --- internal ---

/*
 * Chosen on the judged sets' own parts (paraphrase, conversational, misspelled, keyword, stated
 * constraint; the first set's paraphrases), among fits of the nearest text alone or mixed with the mean,
 * leads of 0.05–0.15 and rests of the 10th or 20th: looser leads or the nearest text alone found more
 * wrong neighbours than right ones (cosines of the offline model between a job query and job texts are
 * all 0.4–0.9).
 */
/** The occupation this far down the fits stands for the rest of the knowledge base. */
const REST_RANK = 10;
/** Least fit: below it the query is about no occupation in particular. */
const MIN_FIT = 0.5;
/** Least lead over the rest. */
const MIN_STANDOUT = 0.15;
/** Confidence per unit of lead over the rest (a lead of 0.2 is 0.6). */
const PER_STANDOUT = 3;
/** Most confidence a match by meaning gets: never as sure as a job named in words (0.95). */
const MAX_CONFIDENCE = 0.6;

/** The embedder's vector for a text without a known word says nothing of any occupation. */
function isFallback(query: Float32Array, d: number): boolean {
  const fallback = fallbackVector(d);
  return query.every((x, j) => x === fallback[j]);
}
