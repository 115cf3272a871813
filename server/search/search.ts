import { AppError, invalidParameter } from "../../shared/errors.ts";
import type { JobResult } from "../../shared/job.ts";
import { FACET_DEPTH, type FacetCounts, type QueryEcho, type SearchRequest } from "../../shared/search.ts";
import type { Embedder } from "../embedding/embedder.ts";
import type { ResultCache } from "../cache/result-cache.ts";
import { analyzeQuery } from "../relevance/query-understanding.ts";
import { addDataEvidence, addFeedback, calibratedScore, features, fusedScore, rankingQuery, type Features } from "../relevance/ranking.ts";
import type { CandidateRow, JobStore } from "../store/store.ts";
import { countFacets } from "./facets.ts";
import { collapseReposts, toResult, withoutPosting } from "./page.ts";
import { understandRequest } from "./understood.ts";
import { idf } from "../store/term-stats.ts";
import { OCCUPATIONS } from "../knowledge/knowledge.ts";
import { foldedWords, hasCjk } from "../relevance/text.ts";
import { dot } from "../relevance/vector.ts";
import { withTimeout } from "../timeout.ts";
import { MIN_CANDIDATES, NAMED_JOB_CONFIDENCE, STRONG_EXPANSION_WEIGHT } from "../relevance/tuning.ts";

export interface SearchDeps {
  store: JobStore;
  embedder: Embedder;
  /** Pages already computed for this table version; absent = every search runs. */
  cache?: ResultCache;
  /** A search taking longer fails with SERVICE_UNAVAILABLE and stops its remaining work; absent = no limit. */
  timeoutMs?: number;
  /** Told where a timed-out search stopped (embed, retrieve, rank, page). */
  onCancelled?: (stage: SearchStage) => void;
}

/** The steps of a search, between which (and within ranking's loops) a timed-out search stops. */
export type SearchStage = "embed" | "retrieve" | "rank" | "page";

/**
 * When a search must stop, in `performance.now()` milliseconds; undefined = never. A clock rather
 * than an AbortSignal: ranking is synchronous, and no timer can fire to abort a signal inside it.
 */
export type Deadline = number | undefined;

/**
 * One page of a search and what was understood of its words. Unless `request.understand` is false,
 * the query's misspellings are corrected and the conditions it states become filters (server/understand/);
 * the remaining words are searched. Keyword (BM25) and vector retrieval each fetch the best candidates among
 * the postings matching the filters (filters apply inside both queries), the union is ranked by a
 * fused, calibrated score, reposts collapse to their newest copy, results under `minScore` drop,
 * and the page holds ranks [offset, offset + topK), shown newest first (or by relevance).
 * Throws INVALID_PARAMETER for a source that is not in the data, SERVICE_UNAVAILABLE when it
 * takes longer than `deps.timeoutMs`. The answer comes at the timeout; the work stops at its next
 * step or within ranking (a LanceDB query under way cannot be cancelled and finishes, but nothing
 * is ranked or built after it).
 */
export async function searchJobs(deps: SearchDeps, request: SearchRequest): Promise<SearchOutcome> {
  const understood = await understandRequest(deps, request);
  const page = await boundedSearch(deps, understood.request);
  return { ...page, query: understood.echo(page.results, request) };
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

/** The page within `deps.timeoutMs`. */
async function boundedSearch(deps: SearchDeps, request: SearchRequest): Promise<SearchPage> {
  if (deps.timeoutMs === undefined) return cachedSearch(deps, request);
  const ms = deps.timeoutMs;
  const timedOut = () => new AppError("SERVICE_UNAVAILABLE", `search timed out after ${ms} ms; try again, or narrow the query or filters`);
  const work = cachedSearch(deps, request, performance.now() + ms).catch((error: unknown) => {
    if (!(error instanceof SearchCancelled)) throw error;
    deps.onCancelled?.(error.stage);
    // The work can see its deadline pass before the timer below fires (both measure the same ms).
    throw timedOut();
  });
  return withTimeout(work, ms, timedOut);
}

/** A page from the cache, or computed and cached (searches with facets or for similar jobs are not cached). */
async function cachedSearch(deps: SearchDeps, request: SearchRequest, deadline?: Deadline): Promise<SearchPage> {
  const cache = request.facets.length === 0 && request.similarTo === undefined ? deps.cache : undefined;
  const version = cache ? await deps.store.version() : 0;
  const cached = cache?.get(version, request);
  if (cached) return { results: cached };
  const page = await runSearch(deps, request, deadline);
  cache?.set(version, request, page.results);
  return page;
}

/** A page without the cache (see `searchJobs`). */
async function runSearch(deps: SearchDeps, request: SearchRequest, deadline?: Deadline): Promise<SearchPage> {
  await checkSource(deps, request);
  const faceted = request.facets.length > 0;
  const ranked = withoutPosting(await rankCandidates(deps, request, deadline, faceted ? FACET_DEPTH : 0), request.similarTo);
  stopIfLate(deadline, "page");
  const collapsed = request.collapse ? collapseReposts(ranked) : ranked;
  const kept = collapsed.filter((c) => c.score >= request.minScore);
  const page = kept.slice(request.offset, request.offset + request.topK);
  if (request.sort === "date") {
    page.sort((a, b) => compareText(b.row.publish_time, a.row.publish_time) || b.score - a.score);
  }
  const results = page.map((candidate) => toResult(candidate, request));
  if (!faceted) return { results };
  const counted = collapsed.filter((c) => c.score >= request.facetMinScore).map((c) => c.row);
  return { results, facets: await countFacets(deps.store, counted, request.facets), total_matches: counted.length };
}

/** A candidate of either retriever with its evidence and scores. */
export interface Ranked {
  row: CandidateRow;
  score: number;
  fused: number;
  features?: Features;
  bm25Rank: number | null;
  vectorRank: number | null;
}

/**
 * Every candidate of both retrievers, best first (equal scores by id, so pages stay stable).
 * Exported for the evaluation, which fits the ranking weights on these features.
 */
export async function rankCandidates(deps: SearchDeps, request: SearchRequest, deadline?: Deadline, minDepth = 0): Promise<Ranked[]> {
  const mode = request.retrieval ?? "hybrid";
  stopIfLate(deadline, "embed");
  const analysis = analyzeQuery(request.query);
  const stats = deps.store.termStats();
  // A query that names a job outright is served best by its own words (related jobs only dilute it);
  // a CJK query has its own keyword path, and English expansions would pull it towards English postings.
  const namesJob = (analysis.occupations[0]?.confidence ?? 0) >= NAMED_JOB_CONFIDENCE || isVocabularyQuery(analysis);
  const expansions = hasCjk(request.query) || namesJob ? [] : analysis.expansions;
  const query = rankingQuery(analysis.terms, expansions, request.query, (token) => idf(stats, token));
  const depth = Math.max(MIN_CANDIDATES, 2 * (request.offset + request.topK), minDepth);
  const steering = expansions.filter((e) => e.weight >= STRONG_EXPANSION_WEIGHT).map((e) => e.text);
  const vector = mode === "bm25" ? undefined : request.similarTo?.vector ?? (await deps.embedder.embedQuery([request.query, ...steering].join(" ")));
  const keywordText = analysis.terms.join(" ") || request.query;
  const full = request.detail === "full";
  stopIfLate(deadline, "retrieve");
  const [nearest, keyword] = await Promise.all([
    vector === undefined ? [] : deps.store.nearest(vector, request.filters, depth, full, request.inferred),
    mode === "vector"
      ? []
      : deps.store.keyword(
          { text: keywordText, expansions: mode === "hybrid" ? expansions : [], cjk: query.cjk },
          request.filters,
          depth,
          full,
          request.inferred,
        ),
  ]);

  const candidates = new Map<string, { row: CandidateRow; cosine: number; bm25: number; bm25Rank: number | null; vectorRank: number | null }>();
  nearest.forEach(({ row, cosine }, i) => candidates.set(row.id, { row, cosine, bm25: 0, bm25Rank: null, vectorRank: i + 1 }));
  keyword.forEach(({ row, score }, i) => {
    const known = candidates.get(row.id);
    if (known) Object.assign(known, { bm25: score, bm25Rank: i + 1 });
    else candidates.set(row.id, { row, cosine: vector ? dot(vector, row.vector) : 0, bm25: score, bm25Rank: i + 1, vectorRank: null });
  });

  stopIfLate(deadline, "rank");
  let bestCosine = -1;
  let bestBm25 = 0;
  for (const c of candidates.values()) {
    bestCosine = Math.max(bestCosine, c.cosine);
    bestBm25 = Math.max(bestBm25, c.bm25);
  }
  const scored = [...candidates.values()].map((c, i) => {
    if (i % LOOP_CHECK_EVERY === 0) stopIfLate(deadline, "rank");
    const retrieval = {
      cosine: c.cosine,
      cosineGap: bestCosine - c.cosine,
      bm25Share: bestBm25 > 0 ? c.bm25 / bestBm25 : 0,
      bm25Reciprocal: reciprocal(c.bm25Rank),
      vectorReciprocal: reciprocal(c.vectorRank),
    };
    return { c, evidence: mode === "hybrid" ? features(query, c.row.terms, retrieval, namesJob) : undefined };
  });
  // Feedback needs every candidate's first-pass evidence before any final score.
  stopIfLate(deadline, "rank");
  if (mode === "hybrid") {
    addFeedback(scored.map(({ c, evidence }) => ({ features: evidence!, vector: c.row.vector, terms: c.row.terms })));
    addDataEvidence(scored.map(({ evidence }) => evidence!), namesJob);
  }
  stopIfLate(deadline, "rank");
  const ranked: Ranked[] = scored.map(({ c, evidence }) => {
    const fused = evidence ? fusedScore(evidence) : mode === "vector" ? c.cosine : c.bm25;
    const score = evidence ? calibratedScore(fused, evidence) : mode === "vector" ? (1 + c.cosine) / 2 : fused / (fused + 10);
    return { row: c.row, score, fused, ...(evidence ? { features: evidence } : {}), bm25Rank: c.bm25Rank, vectorRank: c.vectorRank };
  });
  return ranked.sort((a, b) => b.score - a.score || b.fused - a.fused || compareText(a.row.id, b.row.id));
}

// --- internal ---

/** Thrown inside a search whose caller timed out: the rest of its work is skipped. */
class SearchCancelled extends Error {
  constructor(readonly stage: SearchStage) {
    super(`search cancelled before ${stage}`);
  }
}

/** Candidates ranked between two looks at the clock (a look costs ~50 ns; 128 candidates ~0.5 ms). */
const LOOP_CHECK_EVERY = 128;

function stopIfLate(deadline: Deadline, stage: SearchStage): void {
  if (deadline !== undefined && performance.now() >= deadline) throw new SearchCancelled(stage);
}

/** Every title and skill word of each occupation, folded: a query made only of these is a keyword query. */
const VOCABULARY = new Map(
  OCCUPATIONS.map((o) => [o.id, new Set([...o.titles, ...o.skills].flatMap((text) => foldedWords(text)))]),
);

/**
 * True when each of the query's words is a title or skill word of its best occupation ("elixir erlang"):
 * the person typed the job's own vocabulary, so its words match literally and related jobs only dilute.
 */
function isVocabularyQuery(analysis: ReturnType<typeof analyzeQuery>): boolean {
  const best = analysis.occupations[0];
  const words = best && VOCABULARY.get(best.id);
  const tokens = analysis.terms.flatMap((term) => foldedWords(term));
  return words !== undefined && tokens.length > 0 && tokens.every((token) => words.has(token));
}

async function checkSource(deps: SearchDeps, request: SearchRequest): Promise<void> {
  const { source } = request.filters;
  if (source === undefined) return;
  const { sources } = await deps.store.facets();
  if (!sources.includes(source)) {
    throw invalidParameter(`source must be one of: ${sources.join(", ") || "(no postings loaded)"}`);
  }
}

/** 1 for rank 1, falling like 1/rank after the first ten; 0 for no rank. */
function reciprocal(rank: number | null): number {
  return rank === null ? 0 : 10 / (9 + rank);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
