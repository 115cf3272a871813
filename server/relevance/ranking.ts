import { cjkBigrams, foldedWords } from "./text.ts";
import { dot } from "./vector.ts";
import { FEEDBACK_DEPTH } from "./tuning.ts";
import FITTED from "./ranking-weights.json" with { type: "json" };

/** What a query contributes to ranking: its own words, weighted extra words, and CJK pairs. */
export interface RankingQuery {
  /** Folded tokens of the query's own content words. */
  tokens: string[];
  /** Each token's weight (its IDF), so a rare word counts more than a common one. */
  weights: number[];
  expansions: Array<{ tokens: string[]; weight: number }>;
  cjk: string[];
}

/** Per-candidate evidence, each in [0, 1] except cosine in [-1, 1]. */
export interface Features {
  /** Cosine similarity of query and posting vectors. */
  cosine: number;
  /** How far the cosine falls short of the best candidate's (the static model's cosines shift with the query). */
  cosineGap: number;
  /** BM25 score as a share of the best candidate's; 0 when BM25 did not retrieve it. */
  bm25Share: number;
  /** Reciprocal BM25 rank, 10 / (9 + rank): 1 for the first, 0 when not retrieved. */
  bm25Reciprocal: number;
  /** Reciprocal vector rank, the same way. */
  vectorReciprocal: number;
  /** Share of the query's words in the title. */
  titleCoverage: number;
  /** Share of the query's words in title and the start of the description. */
  textCoverage: number;
  /** Weight of the best knowledge-base title or skill found whole in the title. */
  expansionTitle: number;
  /** The same, found in title or the start of the description. */
  expansionText: number;
  /** Share of the query's CJK pairs in title and description. */
  cjkCoverage: number;
  /** 1 when the query is written in a CJK script and the posting has no CJK text. */
  cjkMismatch: number;
  /** Pseudo-relevance feedback: cosine to the mean vector of the first pass's top postings. */
  feedbackCosine: number;
  /** Share of the posting's title words that recur in the titles of the first pass's top postings. */
  feedbackTitle: number;
  /**
   * 1 when the query names a job outright ("bus driver") and the posting's title holds none of its
   * words; scaled by the share missing. What tells a query for a job no posting is for.
   */
  namedMiss: number;
  /**
   * Whether the data holds the job at all, the same for every candidate of a search: the highest
   * titleCoverage and expansionTitle among the candidates, and, for a query that names a job, how far
   * the best title falls short of holding it (1 when no title holds any of its words).
   */
  bestTitle: number;
  bestExpansion: number;
  namedGap: number;
  /** 1 when some candidate's title holds most of the query (bestTitle ≥ 0.75). */
  titleHeld: number;
}

/** What a candidate's retrievers said, relative to the best candidate of the same search. */
export interface RetrievalEvidence {
  cosine: number;
  cosineGap: number;
  bm25Share: number;
  bm25Reciprocal: number;
  vectorReciprocal: number;
}

/** How much of a description the text features read: where postings say what the job is. */
export const DESCRIPTION_HEAD = 1000;

export function rankingQuery(
  terms: string[],
  expansions: Array<{ text: string; weight: number }>,
  query: string,
  weigh: (token: string) => number,
): RankingQuery {
  const tokens = [...new Set(terms.flatMap(foldedWords))];
  return {
    tokens,
    weights: tokens.map(weigh),
    expansions: expansions.map(({ text, weight }) => ({ tokens: foldedWords(text), weight })).filter((e) => e.tokens.length > 0),
    cjk: [...new Set(cjkBigrams(query))],
  };
}

/** What ranking reads of a posting, computed once at ingest (stored columns `rank_terms`, `cjk_text`). */
export interface RankingTerms {
  rank_terms: string;
  cjk_text: string;
}

export function rankingTerms(title: string, description: string): RankingTerms {
  const titleTokens = new Set(foldedWords(title));
  const textTokens = new Set([...titleTokens, ...foldedWords(description.slice(0, DESCRIPTION_HEAD))]);
  return {
    rank_terms: `${[...titleTokens].join(" ")}\n${[...textTokens].join(" ")}`,
    cjk_text: cjkBigrams(`${title} ${description}`).join(" "),
  };
}

/** The folded words of the title and of title + description start, from `rank_terms`. */
export function splitRankTerms(rankTerms: string): { title: string[]; text: string[] } {
  const [title = "", text = ""] = rankTerms.split("\n");
  return { title: title.split(" ").filter(Boolean), text: text.split(" ").filter(Boolean) };
}

/** A posting's ranking words as sets, built once per posting (see `rowTerms`) and reused by every search. */
export interface RowTerms {
  title: Set<string>;
  text: Set<string>;
  cjk: Set<string>;
}

export function rowTerms(row: RankingTerms): RowTerms {
  const { title, text } = splitRankTerms(row.rank_terms);
  return { title: new Set(title), text: new Set(text), cjk: new Set(row.cjk_text === "" ? [] : row.cjk_text.split(" ")) };
}

/** `named`: the query names a job outright (the knowledge base is sure of it), see `Features.namedMiss`. */
export function features(query: RankingQuery, terms: RowTerms, evidence: RetrievalEvidence, named = false): Features {
  const { title, text } = terms;
  const total = query.weights.reduce((a, b) => a + b, 0);
  const share = (set: Set<string>) => {
    if (total === 0) return 0;
    let sum = 0;
    for (let i = 0; i < query.tokens.length; i++) if (set.has(query.tokens[i]!)) sum += query.weights[i]!;
    return sum / total;
  };
  const bestExpansion = (set: Set<string>) => {
    let best = 0;
    for (const { tokens, weight } of query.expansions) if (weight > best && tokens.every((t) => set.has(t))) best = weight;
    return best;
  };
  let cjkCoverage = 0;
  let cjkMismatch = 0;
  if (query.cjk.length > 0) {
    const pairs = terms.cjk;
    cjkCoverage = query.cjk.filter((pair) => pairs.has(pair)).length / query.cjk.length;
    cjkMismatch = pairs.size === 0 ? 1 : 0;
  }
  const titleCoverage = share(title);
  return {
    ...evidence,
    titleCoverage,
    textCoverage: share(text),
    expansionTitle: bestExpansion(title),
    expansionText: bestExpansion(text),
    cjkCoverage,
    cjkMismatch,
    feedbackCosine: 0,
    feedbackTitle: 0,
    namedMiss: named ? 1 - titleCoverage : 0,
    bestTitle: 0,
    bestExpansion: 0,
    namedGap: 0,
    titleHeld: 0,
  };
}

/** Sets the features that say whether the data holds the job (see `Features.bestTitle`) on every candidate. */
export function addDataEvidence(items: Features[], named: boolean): void {
  let bestTitle = 0;
  let bestExpansion = 0;
  for (const f of items) {
    bestTitle = Math.max(bestTitle, f.titleCoverage);
    bestExpansion = Math.max(bestExpansion, f.expansionTitle);
  }
  const titleHeld = bestTitle >= 0.75 ? 1 : 0;
  for (const f of items) Object.assign(f, { bestTitle, bestExpansion, namedGap: named ? 1 - bestTitle : 0, titleHeld });
}

/**
 * Pseudo-relevance feedback: ranks once without it, takes the best few postings as examples of
 * what the person wants, and sets each candidate's feedback features from its likeness to them.
 */
export function addFeedback(items: Array<{ features: Features; vector: Float32Array; terms: RowTerms }>): void {
  const top = [...items].sort((a, b) => firstPassScore(b.features) - firstPassScore(a.features)).slice(0, FEEDBACK_DEPTH);
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
  return Math.round((1 / (1 + Math.exp(-sum))) * 10_000) / 10_000;
}

/** The features the score reads besides the fused score: the posting's own evidence and whether the data holds the job. */
export const SCORE_FEATURES = [
  "titleCoverage", "textCoverage", "expansionTitle", "expansionText", "cjkCoverage", "namedMiss", "bestTitle", "bestExpansion", "namedGap", "titleHeld",
] as const satisfies readonly (keyof Features)[];

// --- internal ---

export const FIRST_PASS_NAMES = [
  "cosine", "cosineGap", "bm25Share", "bm25Reciprocal", "vectorReciprocal", "titleCoverage", "textCoverage", "expansionTitle", "expansionText", "cjkCoverage", "cjkMismatch",
] as const satisfies readonly (keyof Features)[];
export const FEATURE_NAMES = [...FIRST_PASS_NAMES, "feedbackCosine", "feedbackTitle"] as const satisfies readonly (keyof Features)[];

/** The ranking before feedback: the weights fitted without the feedback features. */
function firstPassScore(f: Features): number {
  let sum = FIRST_PASS.bias;
  for (const name of FIRST_PASS_NAMES) sum += FIRST_PASS[name] * f[name];
  return sum;
}

/** The fitted weights: ranking-weights.json, which `bun bench/relevance/calibrate.ts --write` writes. */
const FIRST_PASS = weightsOf(FITTED.firstPass, FIRST_PASS_NAMES);
const WEIGHTS = weightsOf(FITTED.full, FEATURE_NAMES);
const SCORE = weightsOf(FITTED.score, ["fused", ...SCORE_FEATURES] as const);

/** The weights of `names` (and the bias); a missing one fails at start rather than ranking with NaN. */
function weightsOf<N extends string>(fitted: Record<string, number>, names: readonly N[]): Record<"bias" | N, number> {
  for (const name of ["bias", ...names]) {
    if (typeof fitted[name] !== "number") throw new Error(`ranking-weights.json has no weight for ${name}; run bun bench/calibrate.ts --write`);
  }
  return fitted as Record<"bias" | N, number>;
}

