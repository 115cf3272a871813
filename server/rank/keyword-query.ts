import type { KeywordClause } from "../store/store.ts";

/*
 * The keyword (BM25) query, declared once: which columns each part of a query is matched in and how
 * much each counts. Both retrieval backends run exactly these clauses (store/read.ts with LanceDB's
 * full-text index, memory/copy.ts with its own), each clause its own top list, scores summed.
 */

/** Title words count this many times a description word. */
export const TITLE_BOOST = 3;
/** Knowledge-base expansions at least this confident steer the query vector and search descriptions too. */
export const STRONG_EXPANSION_WEIGHT = 0.5;

/** What the keyword retriever looks for: the query's words, weighted extra words, CJK pairs. */
export interface KeywordQuery {
  text: string;
  expansions: Array<{ text: string; weight: number }>;
  cjk: string[];
}

/** The query as alternative clauses: own words in title (boosted) and description, extra words, CJK pairs. */
export function keywordClauses(query: KeywordQuery): KeywordClause[] {
  const clauses: KeywordClause[] = [];
  if (query.text.trim() !== "") {
    clauses.push({ text: query.text, fields: [{ column: "job_title", boost: TITLE_BOOST }, { column: "job_description", boost: 1 }] });
  }
  // Extra words only need to bring candidates in (ranking weighs them one by one): two clauses, not one per word.
  if (query.expansions.length > 0) {
    const all = query.expansions.map((e) => e.text).join(" ");
    clauses.push({ text: all, fields: [{ column: "job_title", boost: TITLE_BOOST / 2 }] });
    const strong = query.expansions.filter((e) => e.weight >= STRONG_EXPANSION_WEIGHT).map((e) => e.text).join(" ");
    if (strong !== "") clauses.push({ text: strong, fields: [{ column: "job_description", boost: 0.5 }] });
  }
  if (query.cjk.length > 0) clauses.push({ text: query.cjk.join(" "), fields: [{ column: "cjk_text", boost: 1 }] });
  return clauses;
}
