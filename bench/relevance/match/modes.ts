/**
 * The three ways `--set match` turns a profile into a page of postings: BM25 on the whole text, the plain
 * search of the text as a client would send it, and the service's own matching (server/match/match.ts).
 */
import type { JobResult } from "../../../shared/job.ts";
import { QUERY_MAX_LENGTH, parseSearchRequest } from "../../../shared/search.ts";
import { matchJobs } from "../../../server/match/match.ts";
import { searchJobs, type SearchDeps } from "../../../server/search/search.ts";
import { parseMatchRequest } from "../../../shared/match.ts";
import { K } from "../evaluate.ts";

export const MATCH_MODES = ["bm25", "search", "match"] as const;
export type MatchMode = (typeof MATCH_MODES)[number];
export const MATCH_MODE_LABELS: Record<MatchMode, string> = {
  bm25: "bm25 (whole text, understand=false)",
  search: `search (q = first ${QUERY_MAX_LENGTH} chars)`,
  match: "match (matchJobs)",
};

/** What a match result may carry beside the search result's fields (issue 25): the skills it found. */
export interface SkillLists {
  matched_skills: string[];
  missing_skills: string[];
}
export type MatchedJob = JobResult & { match?: Partial<SkillLists> & Record<string, unknown> };

/** Returns a profile's page in `mode`: at most K results, the fields of detail=full. */
export type PageOf = (text: string) => Promise<MatchedJob[]>;

/** The page function of each mode asked for. */
export function pageFunctions(deps: SearchDeps, modes: readonly MatchMode[]): Map<MatchMode, PageOf> {
  const pages = new Map<MatchMode, PageOf>();
  for (const mode of modes) {
    if (mode === "bm25") pages.set(mode, (text) => bm25Page(deps, text));
    if (mode === "search") pages.set(mode, (text) => searchPage(deps, text));
    if (mode === "match") pages.set(mode, (text) => matchPage(deps, text));
  }
  return pages;
}

/**
 * The profile as a /v1/search client sends it: q holds at most QUERY_MAX_LENGTH characters (a longer q is
 * rejected with INVALID_PARAMETER), so the text, as written, is cut there, back to the last whitespace so that
 * no word is split (text without spaces, as Chinese, is cut at the limit). 12 of the first 48 profiles are
 * longer (every full CV, a few summaries), and 15 of the 24 added to the own part later (every full CV, most
 * LinkedIn and non-native texts): their search sees their first ~1,000 characters only, often little more
 * than a name, a headline and a summary.
 */
export function truncateForSearch(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= QUERY_MAX_LENGTH) return trimmed;
  const cut = trimmed.slice(0, QUERY_MAX_LENGTH + 1);
  const space = cut.search(/\s\S*$/);
  return (space > QUERY_MAX_LENGTH / 2 ? cut.slice(0, space) : cut.slice(0, QUERY_MAX_LENGTH)).trim();
}

// --- internal ---

/** BM25 alone on the whole text: an internal retriever call, so the wire limit on q does not apply. */
async function bm25Page(deps: SearchDeps, text: string): Promise<MatchedJob[]> {
  const request = parseSearchRequest({ q: "profile", top_k: K, offset: 0, detail: "full" }, "post");
  const outcome = await searchJobs(deps, { ...request, query: text, understand: false, retrieval: "bm25" });
  return outcome.results;
}

/** The plain search a REST caller gets for {q, top_k: 10, detail: "full"}: the default mode, understanding on. */
async function searchPage(deps: SearchDeps, text: string): Promise<MatchedJob[]> {
  const request = parseSearchRequest({ q: truncateForSearch(text), top_k: K, offset: 0, detail: "full" }, "post");
  return (await searchJobs(deps, request)).results;
}

/**
 * The one place that calls the matching under test. Expected (issue 25): matchJobs(deps, {profile, ...search
 * parameters as a POST body gives them}) → {results, profile}; adjust here if its signature differs.
 */
async function matchPage(deps: SearchDeps, text: string): Promise<MatchedJob[]> {
  const outcome = await matchJobs(deps, parseMatchRequest({ profile: text, top_k: K, offset: 0, detail: "full" }, "post"));
  return outcome.results;
}
