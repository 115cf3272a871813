import { invalidParameter } from "../../shared/errors.ts";
import type { JobResult } from "../../shared/job.ts";
import type { SearchRequest } from "../../shared/search.ts";
import type { Embedder } from "./embedder.ts";
import type { FoundJob, JobStore } from "./store.ts";

export interface SearchDeps {
  store: JobStore;
  embedder: Embedder;
}

/**
 * One page of a search: relevance ranks [offset, offset + topK) of the postings that match the
 * filters (filters are applied inside the vector query, so a page is full whenever enough
 * postings match), then displayed newest first, ties by score. Throws INVALID_PARAMETER for a
 * source that is not in the data.
 */
export async function searchJobs(deps: SearchDeps, request: SearchRequest): Promise<JobResult[]> {
  const { source } = request.filters;
  if (source !== undefined) {
    const { sources } = await deps.store.facets();
    if (!sources.includes(source)) {
      throw invalidParameter(`source must be one of: ${sources.join(", ") || "(no postings loaded)"}`);
    }
  }
  const vector = await deps.embedder.embedQuery(request.query);
  const full = request.detail === "full";
  const found = await deps.store.nearest(vector, request.filters, request.offset + request.topK, full);
  // Equal distances are ordered by id so that pages stay disjoint and stable.
  found.sort((a, b) => a._distance - b._distance || compareText(a.id, b.id));
  return found
    .slice(request.offset, request.offset + request.topK)
    .map((row) => toResult(row, full))
    .sort((a, b) => compareText(b.publish_time, a.publish_time) || b.score - a.score);
}

/**
 * Relevance score in [0, 1] from cosine distance d in [0, 2]: (1 + cosine similarity) / 2 = 1 - d / 2,
 * rounded to 4 decimals. Monotone in similarity; 0.5 means orthogonal (unrelated) texts.
 */
export function scoreFromDistance(distance: number): number {
  const score = 1 - distance / 2;
  return Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000;
}

// --- internal ---

function toResult(row: FoundJob, full: boolean): JobResult {
  // Key order follows spec §2.1; unknown optional fields stay absent.
  return {
    score: scoreFromDistance(row._distance),
    ...present("job_title", row.job_title),
    ...present("city", row.city),
    ...present("company_name", row.company_name),
    publish_time: row.publish_time,
    ...present("base_salary", row.base_salary),
    job_url: row.job_url,
    job_tags: row.job_tags,
    data_source: row.data_source,
    ...present("seniority_level", row.seniority_level),
    ...present("employment_type", row.employment_type),
    ...(full ? { job_description: row.job_description ?? "" } : {}),
  };
}

function present<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value === null || value === undefined || value === "" ? {} : ({ [key]: value } as Record<K, string>);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
