import { cjkBigrams, foldedWords, hasCjk } from "../text/fold.ts";
import type { RowTerms, TermSet } from "../text/rank-terms.ts";

/*
 * The evidence ranking weighs, per candidate: what the retrievers said, how much of the query the
 * posting's title and text hold, the knowledge base's titles and skills in it, CJK pairs, and (set by
 * feedback.ts and addDataEvidence) its likeness to the best candidates and whether the data holds the job.
 */

/** What a query contributes to ranking: its own words, weighted extra words, and CJK pairs. */
export interface RankingQuery {
  /** Folded tokens of the query's own content words. */
  tokens: string[];
  /** Each token's weight (its IDF), so a rare word counts more than a common one. */
  weights: number[];
  expansions: Array<{ tokens: string[]; weight: number }>;
  /** The CJK pairs ranking looks for. */
  cjk: string[];
  /** The query is written (partly) in a CJK script, so a posting without CJK text is in another language. */
  cjkScript: boolean;
  /** Per token: its CJK pairs when it is written in a CJK script (no spaces divide its words: see `cjkShare`), else none. */
  tokenPairs: string[][];
  /** Per token written in CJK and Latin letters together ("java后端工程师"): its Latin words, which a posting must hold as well; else none. */
  tokenLatin: string[][];
  /**
   * Per token: 1 when it modifies the job the query's last word names ("rust" and "systems" of "rust systems
   * programmer", "office" of "office manager"), in a query of two or more words not in CJK; else 0.
   */
  modifiers: number[];
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
  /**
   * The share (by weight) of the query's modifiers (`RankingQuery.modifiers`) that the posting's title and the
   * start of its description lack: a "Systems Programmer" for "rust systems programmer" is another job of its kind.
   */
  modifierMiss: number;
}

/** What a candidate's retrievers said, relative to the best candidate of the same search. */
export interface RetrievalEvidence {
  cosine: number;
  cosineGap: number;
  bm25Share: number;
  bm25Reciprocal: number;
  vectorReciprocal: number;
}

export function rankingQuery(
  terms: string[],
  expansions: Array<{ text: string; weight: number }>,
  query: string,
  weigh: (token: string) => number,
  cjkText = query,
): RankingQuery {
  const tokens = [...new Set(terms.flatMap(foldedWords))];
  const tokenPairs = tokens.map(cjkBigrams);
  const weights = tokens.map(weigh);
  // Beside Chinese words, a Latin one (a language, a tool: "python 开发") is what sets the job apart from
  // every Chinese posting of its kind: it weighs at least as much as they do.
  const chinese = Math.max(0, ...weights.filter((_, i) => tokenPairs[i]!.length > 0));
  const latin = tokens.filter((_, i) => tokenPairs[i]!.length === 0);
  const modifiers = tokens.map((token, i) => (latin.length >= 2 && tokenPairs[i]!.length === 0 && token !== latin.at(-1) ? 1 : 0));
  return {
    tokens,
    weights: weights.map((w, i) => (tokenPairs[i]!.length === 0 ? Math.max(w, chinese) : w)),
    expansions: expansions.map(({ text, weight }) => ({ tokens: foldedWords(text), weight })).filter((e) => e.tokens.length > 0),
    cjk: [...new Set(cjkBigrams(cjkText))],
    cjkScript: hasCjk(query),
    tokenPairs,
    tokenLatin: tokens.map((token, i) => (tokenPairs[i]!.length > 0 ? token.match(LATIN_WORD) ?? [] : [])),
    modifiers,
  };
}

/** A run of Latin letters and digits inside a token ("java" in "java后端工程师"). */
const LATIN_WORD = /[a-z0-9][a-z0-9.+#]*/g;

/**
 * How much of a CJK token the CJK words of a set hold: CJK is written without spaces, so a title's word
 * is a run of several words ("软件测试工程师"), and a query's ("软件测试") is held when its character
 * pairs occur inside them: the share of its pairs that do.
 */
function cjkShare(pairs: string[], words: string[]): number {
  return pairs.filter((pair) => words.some((word) => word.includes(pair))).length / pairs.length;
}

/** The share of Latin words a posting holds: as words of their own, or joined to its CJK words (`joinedLatin`). */
function latinShare(latin: string[], set: TermSet, joined: ReadonlySet<string>): number {
  return latin.filter((word) => set.has(word) || joined.has(word)).length / latin.length;
}

/** The Latin words written joined to a set's CJK words ("java" in "java后端工程师"), found once per set. */
function joinedLatin(cjkWords: string[]): Set<string> {
  return new Set(cjkWords.flatMap((word) => word.match(LATIN_WORD) ?? []));
}

function cjkWordsOf(set: TermSet): string[] {
  const words: string[] = [];
  for (const word of set) if (hasCjk(word)) words.push(word);
  return words;
}

/** `named`: the query names a job outright (the knowledge base is sure of it), see `Features.namedMiss`. */
export function features(query: RankingQuery, terms: RowTerms, evidence: RetrievalEvidence, named = false): Features {
  const { title, text } = terms;
  const total = query.weights.reduce((a, b) => a + b, 0);
  const share = (set: TermSet) => {
    if (total === 0) return 0;
    let sum = 0;
    let cjkWords: string[] | undefined;
    let joined: Set<string> | undefined;
    for (let i = 0; i < query.tokens.length; i++) {
      const pairs = query.tokenPairs[i]!;
      if (set.has(query.tokens[i]!)) sum += query.weights[i]!;
      else if (pairs.length > 0) {
        const words = (cjkWords ??= cjkWordsOf(set));
        const latin = query.tokenLatin[i]!;
        const held = cjkShare(pairs, words);
        sum += query.weights[i]! * (latin.length === 0 ? held : (held + latinShare(latin, set, (joined ??= joinedLatin(words)))) / 2);
      } else if (query.cjkScript && (joined ??= joinedLatin((cjkWords ??= cjkWordsOf(set)))).has(query.tokens[i]!)) sum += query.weights[i]!;
    }
    return sum / total;
  };
  const bestExpansion = (set: TermSet) => {
    let best = 0;
    for (const { tokens, weight } of query.expansions) if (weight > best && tokens.every((t) => set.has(t))) best = weight;
    return best;
  };
  let cjkCoverage = 0;
  let cjkMismatch = 0;
  if (query.cjk.length > 0) cjkCoverage = query.cjk.filter((pair) => terms.cjk.has(pair)).length / query.cjk.length;
  if (query.cjkScript) cjkMismatch = terms.cjk.size === 0 ? 1 : 0;
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
    modifierMiss: named ? modifierMiss(query, text) : 0,
  };
}

function modifierMiss(query: RankingQuery, text: TermSet): number {
  let all = 0;
  let missed = 0;
  for (let i = 0; i < query.tokens.length; i++) {
    if (query.modifiers[i] === 0) continue;
    all += query.weights[i]!;
    if (!text.has(query.tokens[i]!)) missed += query.weights[i]!;
  }
  return all === 0 ? 0 : missed / all;
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

/** The features of the first pass (before feedback), in the order of the fitted weights. */
export const FIRST_PASS_NAMES = [
  "cosine", "cosineGap", "bm25Share", "bm25Reciprocal", "vectorReciprocal", "titleCoverage", "textCoverage", "expansionTitle", "expansionText", "cjkCoverage", "cjkMismatch",
] as const satisfies readonly (keyof Features)[];
/** Every feature the fused score weighs. */
export const FEATURE_NAMES = [...FIRST_PASS_NAMES, "feedbackCosine", "feedbackTitle"] as const satisfies readonly (keyof Features)[];
