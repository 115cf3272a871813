import type { JobResult } from "../../shared/job.ts";
import { DESCRIPTION_MAX_CHARS, type SearchRequest } from "../../shared/search.ts";
import type { JobRow, StoreReader } from "../store/store.ts";
import type { Ranked } from "../rank/rank.ts";
import type { Turn } from "./fair-queue.ts";

/*
 * From ranked candidates to the page a caller gets: reposts collapsed, each candidate turned into a
 * result of the spec's shape.
 */

/**
 * Reposts (same company and title, case and spacing aside) keep the place of the best-ranked copy
 * and show the newest one. Postings without a company or title are never merged.
 */
export function collapseReposts(ranked: Ranked[]): Ranked[] {
  /** Each group's place in `out`, so a newer copy replaces the shown one without searching for it. */
  const places = new Map<string, number>();
  const out: Ranked[] = [];
  for (const candidate of ranked) {
    const key = repostKey(candidate.row);
    const place = key === undefined ? undefined : places.get(key);
    if (place === undefined) {
      if (key !== undefined) places.set(key, out.length);
      out.push(candidate);
    } else if (candidate.row.publish_time > out[place]!.row.publish_time) {
      out[place] = candidate;
    }
  }
  return out;
}

/** The ranked candidates without the posting similar jobs are asked for, and without its reposts. */
export function withoutPosting(ranked: Ranked[], similarTo: SearchRequest["similarTo"]): Ranked[] {
  if (similarTo === undefined) return ranked;
  return ranked.filter((c) => c.row.id !== similarTo.id && (similarTo.repostKey === undefined || repostKey(c.row) !== similarTo.repostKey));
}

/** Same company and title, case and spacing aside; undefined without either (never merged). */
export function repostKey(row: Pick<JobRow, "company_name" | "job_title">): string | undefined {
  if (!row.company_name || !row.job_title) return undefined;
  // Candidate rows are shared between searches and never change: each key is made once.
  let key = repostKeys.get(row);
  if (key === undefined) {
    const norm = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
    key = `${norm(row.company_name)}\u0000${norm(row.job_title)}`;
    repostKeys.set(row, key);
  }
  return key;
}
const repostKeys = new WeakMap<object, string>();

/**
 * The page's candidates with their descriptions, for full detail: read for the page only (a deep page
 * ranks thousands of candidates), while the search gives its turn to others (the read is LanceDB's work).
 */
export async function describePage(store: Pick<StoreReader, "descriptions">, page: Ranked[], turn: Turn): Promise<Ranked[]> {
  const descriptions = await turn.outside(store.descriptions(page.map((candidate) => candidate.row.id)));
  return page.map((candidate) => ({ ...candidate, row: { ...candidate.row, job_description: descriptions.get(candidate.row.id) ?? "" } }));
}

export function toResult(candidate: Ranked, request: SearchRequest): JobResult {
  // The stored fields are id, then job-search-service.md §2.1's in its order with unknown ones absent; score goes first.
  const { job_description, vector: _, terms: __, country: ___, ...fields } = candidate.row;
  return {
    score: candidate.score,
    ...fields,
    ...(request.detail === "full" ? fullDescription(job_description ?? "") : {}),
    ...(request.explain
      ? { bm25_rank: candidate.bm25Rank, vector_rank: candidate.vectorRank, fused_score: Math.round(candidate.fused * 10_000) / 10_000 }
      : {}),
  };
}

/** The description, cut to DESCRIPTION_MAX_CHARS (never inside a surrogate pair) and flagged when cut. */
function fullDescription(text: string): Pick<JobResult, "job_description" | "job_description_truncated"> {
  if (text.length <= DESCRIPTION_MAX_CHARS) return { job_description: text };
  const end = /[\uD800-\uDBFF]/.test(text[DESCRIPTION_MAX_CHARS - 1]!) ? DESCRIPTION_MAX_CHARS - 1 : DESCRIPTION_MAX_CHARS;
  return { job_description: text.slice(0, end), job_description_truncated: true };
}

