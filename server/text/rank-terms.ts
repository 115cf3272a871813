import { cjkBigrams, foldedWords } from "./fold.ts";

/*
 * The words ranking compares, stored with each posting at load (columns `rank_terms`, `cjk_text`)
 * and read back as sets for every search that ranks it: folded words of the title and of the title
 * with the start of the description, and the CJK pairs of both.
 */

/** How much of a description the text features read: where postings say what the job is. */
export const DESCRIPTION_HEAD = 1000;

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

/** What ranking asks of a posting's words: a Set<string> is one, and so is the in-memory copy's compact set (memory/terms.ts). */
export interface TermSet extends Iterable<string> {
  readonly size: number;
  has(word: string): boolean;
}

/** A posting's ranking words as sets, built once per posting (see `rowTerms`) and reused by every search. */
export interface RowTerms {
  title: TermSet;
  text: TermSet;
  cjk: TermSet;
}

export function rowTerms(row: RankingTerms): RowTerms {
  const { title, text } = splitRankTerms(row.rank_terms);
  return { title: new Set(title), text: new Set(text), cjk: new Set(row.cjk_text === "" ? [] : row.cjk_text.split(" ")) };
}
