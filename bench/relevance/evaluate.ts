import type { JobResult } from "../../shared/job.ts";
import { parseSearchRequest } from "../../shared/search.ts";
import { searchJobs, type SearchDeps } from "../../server/search/search.ts";
import { isRelevant, matchesFilters } from "./judge.ts";
import { mean, ndcgAt, percentile, precisionAt } from "./metrics.ts";
import type { JudgedQuery, QueryKind } from "./sets/queries.ts";
import type { EvalRecord } from "./dataset.ts";

/** Each retriever with the query's words as typed (hybrid is the service with understand=false), and the service by default. */
export const MODES = ["bm25", "vector", "hybrid", "default"] as const;
export type EvalMode = (typeof MODES)[number];
export const KINDS = ["keyword", "paraphrase", "chinese", "filtered", "constraint", "typo", "unseen typo"] as const satisfies readonly QueryKind[];
/** The kinds the overall figure covers: the first judged set, so it stays comparable across versions. */
const OVERALL_KINDS: readonly QueryKind[] = ["keyword", "paraphrase", "chinese", "filtered"];
export const K = 10;
const SNIPPET_CHARS = 160;

/** A query with its place in the set (1-based, as printed) and what the data holds for it. */
export interface CountedQuery extends JudgedQuery {
  number: number;
  /** Postings its filters allow, and how many of those its judge accepts. */
  matchingFilters: number;
  relevantInData: number;
}

export interface RankedResult {
  score: number;
  relevant: boolean;
  job_title: string;
  city: string;
  publish_time: string;
  /** The start of the description, on one line: enough to check a judgment by eye. */
  snippet: string;
}

export interface QueryOutcome {
  number: number;
  precision: number;
  ndcg: number;
  /** The page in relevance order (score descending), not in the newest-first display order. */
  ranked: RankedResult[];
  latencyMs: number[];
}

export interface Aggregate {
  precision: number;
  ndcg: number;
  queries: number;
}

export interface ModeOutcome {
  mode: EvalMode;
  byKind: Record<QueryKind, Aggregate>;
  /** The held-out part of each kind that has one (constraint, typo). */
  heldOutByKind: Partial<Record<QueryKind, Aggregate>>;
  overall: Aggregate;
  latency: { p50: number; p99: number; samples: number };
  queries: QueryOutcome[];
}

/** Numbers the queries and counts, by their judges, the relevant postings among those their filters allow. */
export function countRelevant(queries: JudgedQuery[], records: EvalRecord[]): CountedQuery[] {
  return queries.map((query, i) => {
    const allowed = records.filter((record) => matchesFilters(query.filters ?? {}, record));
    const relevantInData = allowed.filter((record) => isRelevant(query, record)).length;
    return { ...query, number: i + 1, matchingFilters: allowed.length, relevantInData };
  });
}

/**
 * Runs every query in one retrieval mode: a warm-up pass, then `rounds` timed passes; the first
 * timed pass is judged. P@10 and nDCG@10 are averaged per kind and over all queries (macro).
 */
/**
 * Runs every query `rounds` times in `mode` and judges its page; a constraint query's results are
 * judged on their full records (`records` by job_url: a result carries no country).
 */
export async function evaluateMode(
  deps: SearchDeps, mode: EvalMode, queries: CountedQuery[], rounds: number, records = new Map<string, EvalRecord>(),
): Promise<ModeOutcome> {
  for (const query of queries) await search(deps, mode, query);
  const outcomes = new Map<number, QueryOutcome>();
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const started = performance.now();
      const page = await search(deps, mode, query);
      const elapsed = performance.now() - started;
      const outcome = outcomes.get(query.number) ?? judge(query, page, records);
      outcome.latencyMs.push(elapsed);
      outcomes.set(query.number, outcome);
    }
  }
  const results = queries.map((query) => outcomes.get(query.number)!);
  const samples = results.flatMap((outcome) => outcome.latencyMs);
  const byKind = Object.fromEntries(
    KINDS.map((kind) => [kind, aggregate(results.filter((_, i) => queries[i]!.kind === kind))]),
  ) as Record<QueryKind, Aggregate>;
  const heldOutByKind = Object.fromEntries(
    KINDS.filter((kind) => queries.some((q) => q.kind === kind && q.heldOut))
      .map((kind) => [kind, aggregate(results.filter((_, i) => queries[i]!.kind === kind && queries[i]!.heldOut))]),
  );
  return {
    mode,
    byKind,
    heldOutByKind,
    overall: aggregate(results.filter((_, i) => OVERALL_KINDS.includes(queries[i]!.kind))),
    latency: { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length },
    queries: results,
  };
}

// --- internal ---

/**
 * The request a REST caller sending {q, top_k: 10, detail: "full"} gets (so every other option keeps its
 * default), with the typed filters and the mode under test: a retriever alone on the words as typed, or the default.
 */
async function search(deps: SearchDeps, mode: EvalMode, query: CountedQuery): Promise<JobResult[]> {
  const request = parseSearchRequest({ q: query.query, top_k: K, offset: 0, detail: "full" }, "post");
  const filters = query.filters ?? {};
  const outcome = mode === "default"
    ? await searchJobs(deps, { ...request, filters })
    : await searchJobs(deps, { ...request, filters, understand: false, retrieval: mode });
  return outcome.results;
}

function judge(query: CountedQuery, page: JobResult[], records: Map<string, EvalRecord>): QueryOutcome {
  // Pages are displayed newest first; the score is monotone in relevance, so it restores the ranking.
  const ranked = [...page]
    .sort((a, b) => b.score - a.score)
    .map((job) => ({
      score: job.score,
      relevant: isRelevant(query, query.fields ? (records.get(job.job_url) ?? job) : job),
      job_title: job.job_title ?? "",
      city: job.city ?? "",
      publish_time: job.publish_time,
      snippet: (job.job_description ?? "").slice(0, SNIPPET_CHARS).replace(/\s+/g, " ").trim(),
    }));
  const judgments = ranked.map((result) => result.relevant);
  return {
    number: query.number,
    precision: precisionAt(K, judgments),
    ndcg: ndcgAt(K, judgments, query.relevantInData),
    ranked,
    latencyMs: [],
  };
}

function aggregate(outcomes: QueryOutcome[]): Aggregate {
  return {
    precision: mean(outcomes.map((outcome) => outcome.precision)),
    ndcg: mean(outcomes.map((outcome) => outcome.ndcg)),
    queries: outcomes.length,
  };
}
