import { AppError, invalidParameter } from "../../shared/errors.ts";
import type { JobResult } from "../../shared/job.ts";
import { FACET_DEPTH, type FacetCounts, type QueryEcho, type SearchRequest } from "../../shared/search.ts";
import type { ResultCache } from "../cache/result-cache.ts";
import type { Ranked } from "../rank/rank.ts";
import { compareText } from "../text/order.ts";
import type { StoreReader } from "../store/store.ts";
import { withTimeout } from "../timeout.ts";
import type { Understanding } from "../understand/understand.ts";
import { rankCandidates, type RetrievalDeps } from "./candidates.ts";
import { SearchCancelled, stopIfLate, type Deadline, type SearchStage } from "./deadline.ts";
import { understandRequest } from "./echo.ts";
import { FREE_TURN, type Turn } from "./fair-queue.ts";
import { countFacets } from "./facets.ts";
import { collapseReposts, describePage, toResult, withoutPosting } from "./page.ts";

export interface SearchDeps extends RetrievalDeps {
  /** Pages already computed for this table version; absent = every search runs. */
  cache?: ResultCache;
  /** A search taking longer fails with SERVICE_UNAVAILABLE and stops its remaining work; absent = no limit. */
  timeoutMs?: number;
  /** Told where a timed-out search stopped (queue, embed, retrieve, rank, page). */
  onCancelled?: (stage: SearchStage) => void;
  /** The caller's turns in the process's fair queue (fair-queue.ts), one per search; absent = no queue. */
  turns?: () => Turn;
}

/**
 * One page of a search and what was understood of its words. Unless `request.understand` is false,
 * the query's misspellings are corrected and the conditions it states become filters (server/understand/);
 * the remaining words are searched. Keyword (BM25) and vector retrieval each fetch the best candidates among
 * the postings matching the filters (filters apply inside both queries), the union is ranked by a
 * fused, calibrated score, reposts collapse to their newest copy, results under `minScore` drop,
 * and the page holds ranks [offset, offset + topK), shown newest first (or by relevance).
 * Throws INVALID_PARAMETER for a source that is not in the data, SERVICE_UNAVAILABLE when it
 * takes longer than `deps.timeoutMs`, the wait for its turn included. The answer comes at the timeout;
 * the work stops at its next step or within ranking (a LanceDB query under way cannot be cancelled
 * and finishes, but nothing is ranked or built after it).
 */
export async function searchJobs(unpinned: SearchDeps, request: SearchRequest): Promise<SearchOutcome> {
  // The deadline runs from here: understanding the words is part of the search's time.
  return bounded(unpinned, async (deadline) => {
    const deps = await oneVersion(unpinned);
    const understood = await understandRequest(deps, request);
    stopIfLate(deadline, "embed");
    const page = await inTurn(deps, understood.request, understood.understanding, deadline);
    return { ...page, query: understood.echo(page.results, request) };
  });
}

/**
 * `deps` reading one table version throughout (store/read.ts versionViews): the page, its facets, totals and
 * descriptions, and what the words were understood against, all from the version current now.
 */
export async function oneVersion<D extends { store: StoreReader }>(deps: D): Promise<D> {
  return { ...deps, store: await deps.store.view() };
}

/** A page, what was understood of the query, and (with facets) the counts. */
export interface SearchOutcome extends SearchPage {
  query: QueryEcho;
}

/** One page of results, with the facets' counts and total_matches when facets were asked for. */
export interface SearchPage {
  results: JobResult[];
  facets?: FacetCounts;
  total_matches?: number;
}

/** The answer of `work` within `deps.timeoutMs` (its deadline passed in), or SERVICE_UNAVAILABLE at the timeout. */
async function bounded<T>(deps: SearchDeps, work: (deadline: Deadline) => Promise<T>): Promise<T> {
  if (deps.timeoutMs === undefined) return work(undefined);
  const ms = deps.timeoutMs;
  const timedOut = () => new AppError("SERVICE_UNAVAILABLE", `search timed out after ${ms} ms; try again, or narrow the query or filters`);
  const deadline = performance.now() + ms;
  const running = () =>
    work(deadline).catch((error: unknown) => {
      if (!(error instanceof SearchCancelled)) throw error;
      deps.onCancelled?.(error.stage);
      // The work can see its deadline pass before the timer below fires (both measure the same ms).
      throw timedOut();
    });
  return withTimeout(running, ms, timedOut);
}

/** The page, computed while the search holds its turn (taken first, handed on at the end, offered between steps). */
async function inTurn(deps: SearchDeps, request: SearchRequest, understanding: Understanding, deadline: Deadline): Promise<SearchPage> {
  const turn = deps.turns?.() ?? FREE_TURN;
  try {
    await turn.take();
    stopIfLate(deadline, "queue");
    return await cachedSearch(deps, request, understanding, deadline, turn);
  } finally {
    turn.done();
  }
}

/** A page from the cache, or computed and cached (searches with facets, for similar jobs or among given postings are not cached). */
async function cachedSearch(deps: SearchDeps, request: SearchRequest, understanding: Understanding, deadline: Deadline, turn: Turn): Promise<SearchPage> {
  const cache = request.facets.length === 0 && request.similarTo === undefined && request.onlyIds === undefined ? deps.cache : undefined;
  const version = cache ? await deps.store.version() : 0;
  // The term statistics weigh the words: a page ranked with others is not this one.
  const stats = deps.store.termStats();
  const cached = cache?.get(version, request, stats);
  if (cached) return { results: cached };
  const page = await runSearch(deps, request, understanding, deadline, turn);
  cache?.set(version, request, page.results, stats);
  return page;
}

/** A page without the cache (see `searchJobs`). */
async function runSearch(deps: SearchDeps, request: SearchRequest, understanding: Understanding, deadline: Deadline, turn: Turn): Promise<SearchPage> {
  await checkSource(deps, request);
  // The clusters' facts (a scan once per table version) are read while the search ranks.
  const facts = deps.store.clusterFacts();
  facts.catch(() => {});
  const faceted = request.facets.length > 0;
  const ranked = withoutPosting(await rankCandidates(deps, request, understanding, deadline, faceted ? FACET_DEPTH : 0, turn), request.similarTo);
  await turn.pause();
  stopIfLate(deadline, "page");
  const collapsed = request.collapse ? collapseReposts(ranked) : ranked;
  const kept = collapsed.filter((c) => c.score >= request.minScore);
  const page = kept.slice(request.offset, request.offset + request.topK);
  if (request.sort === "date") {
    page.sort((a, b) => compareText(b.row.publish_time, a.row.publish_time) || b.score - a.score);
  }
  const shown = request.detail === "full" ? await describePage(deps.store, page, turn) : page;
  stopIfLate(deadline, "page");
  const clusters = await facts;
  const results = shown.map((candidate) => toResult(candidate, request, clusters));
  if (!faceted) return { results };
  stopIfLate(deadline, "page");
  const counted = collapsed.filter((c) => c.score >= request.facetMinScore).map((c) => c.row);
  return { results, facets: await countFacets(deps.store, counted, request.facets, () => turn.pause()), total_matches: counted.length };
}

// --- internal ---

async function checkSource(deps: SearchDeps, request: SearchRequest): Promise<void> {
  const { source } = request.filters;
  if (source === undefined) return;
  const { sources } = await deps.store.facets();
  if (!sources.includes(source)) {
    throw invalidParameter(`source must be one of: ${sources.join(", ") || "(no postings loaded)"}`);
  }
}
