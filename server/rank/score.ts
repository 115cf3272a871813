import { FEATURE_NAMES, FIRST_PASS_NAMES, type Features } from "./features.ts";
import { KNOWLEDGE_FINGERPRINT } from "../knowledge/knowledge.ts";
import FITTED from "./weights.json" with { type: "json" };

/**
 * The fused relevance of a posting: a linear blend of its features (weights from the evaluation,
 * see README "Relevance"). Higher is better; it does not depend on the page or the other candidates.
 */
export function fusedScore(f: Features): number {
  let sum = WEIGHTS.bias;
  for (const name of FEATURE_NAMES) sum += WEIGHTS[name] * f[name];
  return sum;
}

/**
 * The 0–1 score: a logistic model of "relevant" over the fused score (which orders the candidates,
 * partly by how they compare with one another) and the evidence a posting holds on its own: how much
 * of the query its title and text hold, the knowledge base's titles in it, and whether it misses a job
 * the query names. Fitted (bench/relevance/calibrate.ts) on the judged queries and on queries for occupations
 * no posting is for, so that a score approximates the share of results with that score that are
 * relevant (0.8 ≈ 4 in 5) and a query nothing in the data answers scores under 0.5.
 */
export function calibratedScore(fused: number, f: Features): number {
  let sum = SCORE.bias + SCORE.fused * fused;
  for (const name of SCORE_FEATURES) sum += SCORE[name] * f[name];
  return scoreOfOdds(sum);
}

/** A score from its log-odds: the logistic, to four decimals (every 0–1 score the service shows). */
export function scoreOfOdds(odds: number): number {
  return Math.round((1 / (1 + Math.exp(-odds))) * 10_000) / 10_000;
}

/** The features the score reads besides the fused score: the posting's own evidence and whether the data holds the job. */
export const SCORE_FEATURES = [
  "titleCoverage", "textCoverage", "expansionTitle", "expansionText", "cjkCoverage", "namedMiss", "bestTitle", "bestExpansion", "namedGap", "titleHeld", "modifierMiss",
] as const satisfies readonly (keyof Features)[];

/** The ranking before feedback: the weights fitted without the feedback features. */
export function firstPassScore(f: Features): number {
  let sum = FIRST_PASS.bias;
  for (const name of FIRST_PASS_NAMES) sum += FIRST_PASS[name] * f[name];
  return sum;
}

/**
 * Whether the weights were fitted on this knowledge: weights.json records the KNOWLEDGE_FINGERPRINT
 * it was fitted on. A mismatch is not fatal (the weights still rank); a test shows it.
 */
export const WEIGHTS_MATCH_KNOWLEDGE: boolean = FITTED.knowledge === KNOWLEDGE_FINGERPRINT;

// --- internal ---

/** The fitted weights: weights.json, which the calibration (bench/relevance/) writes. */
const FIRST_PASS = weightsOf(FITTED.firstPass, FIRST_PASS_NAMES);
const WEIGHTS = weightsOf(FITTED.full, FEATURE_NAMES);
const SCORE = weightsOf(FITTED.score, ["fused", ...SCORE_FEATURES] as const);

/** The weights of `names` (and the bias); a missing one fails at start rather than ranking with NaN. */
function weightsOf<N extends string>(fitted: Record<string, number>, names: readonly N[]): Record<"bias" | N, number> {
  for (const name of ["bias", ...names]) {
    if (typeof fitted[name] !== "number") throw new Error(`server/rank/weights.json has no weight for ${name}; refit it with the calibration (bench/README.md)`);
  }
  return fitted as Record<"bias" | N, number>;
}

