import { AppError, quoteValue } from "../../shared/errors.ts";
import type { Posting } from "../../shared/job.ts";
import { parseSearchRequest, readFilters, type Interface, type SearchRequest } from "../../shared/search.ts";
import type { Facets } from "../store/store.ts";
import type { TermStats } from "../store/term-stats.ts";
import { hasCjk } from "../text/fold.ts";
import { understandQuery } from "../understand/understand.ts";
import { repostKey } from "./page.ts";
import { oneVersion, searchJobs, type SearchDeps, type SearchOutcome } from "./search.ts";

/*
 * Job details and similar jobs (GET /v1/jobs/{id}, /v1/jobs/{id}/similar; MCP get_job,
 * find_similar_jobs, fetch). Similar jobs are a search whose vector is the posting's own and whose
 * words are its title (its tags, tried too, made the results worse: bench/perf/facets-similar.ts), with the search's
 * filters and paging; what the title says of employment type and remote ("Software Engineer
 * Interns") filters as it would in a query, so an internship's similar jobs are internships. Seniority
 * does not filter: a senior posting's like are the same job at any level (filtering kept 0.78 of the
 * top 10 in the posting's occupation on the held-out sample, not filtering 0.81).
 * The posting and its reposts are left out, and the page is best first unless `sort` says otherwise.
 */

/** The posting with this id; NOT_FOUND when there is none. */
export async function getPosting(deps: Pick<SearchDeps, "store">, id: string): Promise<Posting> {
  const found = await (await deps.store.view()).posting(id);
  if (!found) throw notFound(id);
  return found.posting;
}

/**
 * Postings like the one with this id: `raw` holds the search parameters (filters, top_k, offset,
 * detail, sort, min_score, collapse, facets; a `q` is ignored), read as `via` reads them.
 */
export async function similarJobs(unpinned: SearchDeps, id: string, raw: Record<string, unknown>, via: Interface): Promise<SearchOutcome> {
  // The posting and its like are read from one version: a posting deleted meanwhile is not searched for.
  const deps = await oneVersion(unpinned);
  return searchJobs(deps, await similarRequest(deps, id, raw, via));
}

/** The search `similarJobs` runs (exported for the evaluation, which fits the similarity score on its candidates). */
export async function similarRequest(deps: Pick<SearchDeps, "store">, id: string, raw: Record<string, unknown>, via: Interface): Promise<SearchRequest> {
  const parsed = parseSearchRequest({ ...raw, [via === "mcp" ? "query" : "q"]: "similar" }, via);
  const found = await deps.store.posting(id);
  if (!found) throw notFound(id);
  const { posting, vector } = found;
  const title = posting.job_title?.trim() || "job";
  const conditions = titleConditions(title, parsed.filters, await deps.store.facets(), deps.store.termStats());
  return {
    ...parsed,
    query: conditions.text,
    inferred: conditions.inferred,
    understand: false,
    sort: raw.sort === undefined ? "relevance" : parsed.sort,
    similarTo: { id, vector, repostKey: repostKey(posting), title, cjk: hasCjk(`${title} ${posting.job_description}`) },
  };
}

// --- internal ---

/**
 * The conditions of the job its title states (employment type, remote), as filters, and the title's
 * words without the conditions and places it names: places and times are not the job's kind, and a place's
 * rare name outweighed the job's words ("Data Engineer (Chicago)" found Chicago's data analysts).
 */
function titleConditions(title: string, explicit: SearchRequest["filters"], facets: Facets, stats: TermStats | undefined) {
  const understood = understandQuery(title, explicit, { facets, stats, now: new Date() });
  const kept = Object.fromEntries(Object.entries(understood.filters).filter(([name]) => ["remote", "employment_type"].includes(name)));
  return { text: understood.text.trim() || title, inferred: readFilters(kept) };
}

function notFound(id: string): AppError {
  return new AppError("NOT_FOUND", `No posting has the id ${quoteValue(id)}`);
}
