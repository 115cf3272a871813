import { cjkBigrams, foldedWords } from "../text/fold.ts";
import { withoutGenericCjk } from "../text/query-tokens.ts";
import type { CandidateRow } from "../store/store.ts";
import type { Features, RankingQuery } from "./features.ts";
import { scoreOfOdds } from "./score.ts";
import FITTED from "./similar-weights.json" with { type: "json" };

/*
 * Similar jobs score by their own model: a search's score says how well a posting answers a query a person
 * typed, and a posting's own title as the query reads low for postings of the same job (a Chinese
 * posting's like it scored 0.02–0.07). Beside the search's evidence, a candidate of similar jobs gets how much
 * of the posting's title its own title holds (words weighted by IDF, CJK pairs by how rare they are among the
 * candidates' titles, so 工程/程师 count little) and whether it is written in the posting's language; a
 * logistic model fitted on the own half of bench/relevance/similar.ts's judged sample (`--fit`) turns them
 * into the 0–1 score that also orders them.
 */

/** What similarity reads besides the search's features, per candidate. */
export interface SimilarityEvidence {
  /** Weighted share of the posting's title (words and CJK pairs) found in the candidate's title. */
  titleSimilarity: number;
  /** The best titleSimilarity among the candidates, the same for all (how well the data holds this job). */
  bestSimilarity: number;
  /** Share of the title's head (its first role's last two words, or a Chinese title's words beside the generic ones) in the candidate's title. */
  headMatch: number;
  /** 1 when the candidate is not written in the posting's language (CJK or not). */
  languageMismatch: number;
}

/** What a posting's title says of the job it is: its first role's head words, or a Chinese role's CJK pairs. */
export interface TitleHead {
  words: string[];
  pairs: string[];
}

/**
 * The head of a title: its first role without parentheses, and of it the last two words that are not
 * seniority ("Sr IT Recruiter" → it, recruiter; "Junior Data Scientist" → data, scientist), or for a
 * Chinese role, the pairs of what remains without its generic words ("中级客户端开发工程师（iOS）" → 客户端).
 */
export function titleHead(title: string): TitleHead {
  const role = (title.split(ROLE_BREAK).find((part) => /\p{L}/u.test(part)) ?? title).replace(/[(（［\[][^)）］\]]*[)）］\]]?/g, " ");
  const cjk = withoutGenericCjk(role);
  const pairs = cjkBigrams(cjk);
  const words = foldedWords(role.replace(/[\u3400-\u9fff]+/g, " ")).filter((word) => !SENIORITY.has(word));
  return { words: pairs.length > 0 ? [] : words.slice(-2), pairs };
}

/** The evidence of each candidate, in order; `cjk`: the posting is written in a CJK script. */
export function similarityEvidence(query: RankingQuery, rows: CandidateRow[], posting: { cjk: boolean; head: TitleHead }): SimilarityEvidence[] {
  const { cjk, head } = posting;
  const headUnits = head.words.length + head.pairs.length;
  const titlePairs = rows.map((row) => new Set(cjkBigrams(row.job_title ?? "")));
  const pairs = [...new Set(query.cjk)];
  const pairWeights = pairs.map((pair) => Math.log(1 + rows.length / (1 + titlePairs.filter((set) => set.has(pair)).length)));
  const total = query.weights.reduce((a, b) => a + b, 0) + pairWeights.reduce((a, b) => a + b, 0);
  const evidence = rows.map((row, r) => {
    let found = 0;
    query.tokens.forEach((token, i) => (found += row.terms.title.has(token) ? query.weights[i]! : 0));
    pairs.forEach((pair, i) => (found += titlePairs[r]!.has(pair) ? pairWeights[i]! : 0));
    const headFound = head.words.filter((w) => row.terms.title.has(w)).length + head.pairs.filter((p) => titlePairs[r]!.has(p)).length;
    return {
      titleSimilarity: total > 0 ? found / total : 0,
      bestSimilarity: 0,
      headMatch: headUnits > 0 ? headFound / headUnits : 0,
      languageMismatch: row.terms.cjk.size > 0 === cjk ? 0 : 1,
    };
  });
  const best = Math.max(0, ...evidence.map((e) => e.titleSimilarity));
  for (const e of evidence) e.bestSimilarity = best;
  return evidence;
}

/** The 0–1 similarity: the fitted logistic model over the fused score, the search's evidence and the similarity's. */
export function similarityScore(fused: number, f: Features, s: SimilarityEvidence): number {
  let sum = SIMILAR.bias + SIMILAR.fused * fused;
  for (const name of SIMILARITY_SEARCH_FEATURES) sum += SIMILAR[name] * f[name];
  for (const name of SIMILARITY_FEATURES) sum += SIMILAR[name] * s[name];
  sum += LANGUAGE_MISMATCH * s.languageMismatch;
  return scoreOfOdds(sum);
}

/** The search's features the similarity model weighs. */
export const SIMILARITY_SEARCH_FEATURES = ["cosine", "cosineGap", "titleCoverage", "feedbackCosine", "feedbackTitle"] as const satisfies readonly (keyof Features)[];
/** Its own features. */
export const SIMILARITY_FEATURES = ["titleSimilarity", "bestSimilarity", "headMatch"] as const satisfies readonly (keyof SimilarityEvidence)[];

// --- internal ---

/**
 * Not fitted: the judge reads occupations, and in its sample a Chinese posting's English candidates were as
 * often of its occupation as its Chinese ones; but a Chinese posting's similar jobs should be Chinese postings
 * (and English ones English), so another language's candidate loses this much (a 0.9 falls to 0.3).
 */
const LANGUAGE_MISMATCH = -3;
/** Where a title's roles part ("A / B", "A, B", "A - team"). */
const ROLE_BREAK = /\s\/\s|\/|,|、|;|\||:|\s[-–]\s/;
/** Folded seniority words, which say how senior and not which job. */
const SENIORITY = new Set(["senior", "sr", "junior", "jr", "lead", "princip", "staff", "mid", "level", "entri", "head", "chief", "experienc", "intern"]);

const SIMILAR = checked(FITTED.weights as Record<string, number>);

function checked(fitted: Record<string, number>): Record<"bias" | "fused" | (typeof SIMILARITY_SEARCH_FEATURES)[number] | (typeof SIMILARITY_FEATURES)[number], number> {
  for (const name of ["bias", "fused", ...SIMILARITY_SEARCH_FEATURES, ...SIMILARITY_FEATURES]) {
    if (typeof fitted[name] !== "number") throw new Error(`server/rank/similar-weights.json has no weight for ${name}; refit it (bun bench/relevance/similar.ts --fit)`);
  }
  return fitted as ReturnType<typeof checked>;
}
