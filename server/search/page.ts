import type { JobResult } from "../../shared/job.ts";
import { DESCRIPTION_MAX_CHARS, type SearchRequest } from "../../shared/search.ts";
import type { ClusterFactsLookup } from "../store/clusters.ts";
import type { JobRow, StoreReader } from "../store/store.ts";
import type { Ranked } from "../rank/rank.ts";
import type { Turn } from "./fair-queue.ts";

/*
 * From ranked candidates to the page a caller gets: the same job's postings collapsed, each candidate
 * turned into a result of the spec's shape with its cluster's fields.
 */

/**
 * The same job's postings (its cluster: reposts, copies on other sources or by agencies, assigned at
 * load by ingest/clusters.ts) keep the place of the best-ranked one and show the newest one.
 */
export function collapseReposts(ranked: Ranked[]): Ranked[] {
  /** Each cluster's place in `out`, so a newer posting replaces the shown one without searching for it. */
  const places = new Map<string, number>();
  const out: Ranked[] = [];
  for (const candidate of ranked) {
    const key = clusterOf(candidate.row);
    const place = places.get(key);
    if (place === undefined) {
      places.set(key, out.length);
      out.push(candidate);
    } else if (candidate.row.publish_time > out[place]!.row.publish_time) {
      out[place] = candidate;
    }
  }
  return out;
}

/** The ranked candidates without the posting similar jobs are asked for, and without the rest of its cluster. */
export function withoutPosting(ranked: Ranked[], similarTo: SearchRequest["similarTo"]): Ranked[] {
  if (similarTo === undefined) return ranked;
  return ranked.filter((c) => c.row.id !== similarTo.id && (similarTo.clusterId === undefined || clusterOf(c.row) !== similarTo.clusterId));
}

/** A posting's cluster: its own id on a table loaded before clusters (until its next load). */
export function clusterOf(row: Pick<JobRow, "id" | "cluster_id">): string {
  return row.cluster_id ?? row.id;
}

/**
 * The page's candidates with their descriptions, for full detail: read for the page only (a deep page
 * ranks thousands of candidates), while the search gives its turn to others (the read is LanceDB's work).
 */
export async function describePage(store: Pick<StoreReader, "descriptions">, page: Ranked[], turn: Turn): Promise<Ranked[]> {
  const descriptions = await turn.outside(store.descriptions(page.map((candidate) => candidate.row.id)));
  return page.map((candidate) => ({ ...candidate, row: { ...candidate.row, job_description: descriptions.get(candidate.row.id) ?? "" } }));
}

/** `clusters`: each cluster's facts (StoreReader.clusterFacts), undefined for a table loaded before clusters. */
export function toResult(candidate: Ranked, request: SearchRequest, clusters: ClusterFactsLookup | undefined): JobResult {
  // The stored fields are id, then job-search-service.md §2.1's in its order with unknown ones absent; score goes first.
  const { job_description, vector: _, terms: __, country: ___, cluster_id: ____, ...fields } = candidate.row;
  const cluster = clusterOf(candidate.row);
  return {
    score: candidate.score,
    ...fields,
    ...(request.detail === "full" ? fullDescription(job_description ?? "") : {}),
    ...(request.explain
      ? { bm25_rank: candidate.bm25Rank, vector_rank: candidate.vectorRank, fused_score: Math.round(candidate.fused * 10_000) / 10_000 }
      : {}),
    cluster_id: cluster,
    ...clusters?.get(cluster),
  };
}

/** The description, cut to DESCRIPTION_MAX_CHARS (never inside a surrogate pair) and flagged when cut. */
function fullDescription(text: string): Pick<JobResult, "job_description" | "job_description_truncated"> {
  if (text.length <= DESCRIPTION_MAX_CHARS) return { job_description: text };
  const end = /[\uD800-\uDBFF]/.test(text[DESCRIPTION_MAX_CHARS - 1]!) ? DESCRIPTION_MAX_CHARS - 1 : DESCRIPTION_MAX_CHARS;
  return { job_description: text.slice(0, end), job_description_truncated: true };
}

