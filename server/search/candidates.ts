import type { SearchRequest } from "../../shared/search.ts";
import { dot } from "../embedding/vector.ts";
import { cjkBigrams, hasCjk } from "../text/fold.ts";
import { withoutGenericCjk } from "../text/query-tokens.ts";
import type { Embedder } from "../embedding/embedder.ts";
import { rankingQuery, type RankingQuery } from "../rank/features.ts";
import { keywordClauses, STRONG_EXPANSION_WEIGHT } from "../rank/keyword-query.ts";
import { scoreCandidates, type Candidate, type Ranked } from "../rank/rank.ts";
import { compareText } from "../text/order.ts";
import { titleHead } from "../rank/similarity.ts";
import { filterSet, type FilterSet } from "../store/filter-set.ts";
import type { StoreReader } from "../store/store.ts";
import { idf } from "../store/term-stats.ts";
import { jobWordWeight, type Understanding } from "../understand/understand.ts";
import { stopIfLate, type Deadline } from "./deadline.ts";
import { FREE_TURN, type Turn } from "./fair-queue.ts";

/*
 * Retrieval and ranking of one search: the query's vector (steered by the strong expansions), the
 * keyword clauses, both retrievers among the postings the filters admit (filters apply inside both),
 * their union ranked (server/rank/).
 */

/** Every posting meeting the conditions of a query that names no job answers it: the score says so. */
export const JOBLESS_SCORE = 0.9;

/** What a query without a job is embedded as: the same for "jobs in Berlin" and `{q: "jobs", city: "Berlin"}`. */
const JOBLESS_TEXT = "job";

/**
 * From this many content words on, or this many words typed in more than one sentence or clause (whose
 * conditions, once filters, may leave few content words, "constraint" and "ten" among them), a query is a
 * request with words around the job. One long phrase describes the job itself, in words no title has.
 */
const LONG_REQUEST_TERMS = 8;
const LONG_REQUEST_WORDS = 12;

/** A query of this many words or fewer (not CJK) names its job. */
const NAME_TERMS = 2;

/** Each retriever brings at least this many candidates, so fusion has depth beyond one page. */
const MIN_CANDIDATES = 50;
/** Similar jobs look deeper: the posting's title words are many and common, and its like must be among the candidates to rise. */
const SIMILAR_CANDIDATES = 200;

export interface RetrievalDeps {
  /** Read through one version's view for a whole request (searchJobs pins it: oneVersion). */
  store: StoreReader;
  embedder: Embedder;
}

/**
 * Every candidate of both retrievers, best first. `understanding` is what the words of
 * `request.query` say (understand/); the deadline is looked at, and the search's turn offered, between
 * steps. Exported for the evaluation, which fits the ranking weights on these features.
 */
export async function rankCandidates(
  deps: RetrievalDeps, request: SearchRequest, understanding: Understanding, deadline?: Deadline, minDepth = 0, turn: Turn = FREE_TURN,
): Promise<Ranked[]> {
  const mode = request.retrieval ?? "hybrid";
  // Validated and normalised once, here: both retrievers, whichever engine answers them, read this one form.
  const filters = withOnlyIds(filterSet(request.filters, request.inferred), request.onlyIds);
  stopIfLate(deadline, "embed");
  const { terms, expansions } = understanding;
  const stats = deps.store.termStats();
  // A long request carries words around the job ("bored", "relocating"): there each word counts as much as it speaks of the job.
  const long = terms.length >= LONG_REQUEST_TERMS || (!request.similarTo && isLongRequest(request.query));
  const around = long ? (token: string) => jobWordWeight(stats, token) : () => 1;
  const weigh = (token: string) => idf(stats, token) * around(token);
  const query = request.similarTo ? rankingQuery(terms, expansions, request.query, weigh) : focusedQuery(terms, expansions, request.query, weigh);
  const depth = Math.max(request.similarTo ? SIMILAR_CANDIDATES : MIN_CANDIDATES, 2 * (request.offset + request.topK), minDepth);
  const steering = expansions.filter((e) => e.weight >= STRONG_EXPANSION_WEIGHT).map((e) => e.text);
  // No job to match: the postings nearest one fixed word, whatever the conditions were called, ranked newest first.
  const text = understanding.jobless ? JOBLESS_TEXT : [request.query, ...steering].join(" ");
  // A query of conditions written in Chinese still asks for postings written in Chinese: its words find them.
  const cjkScript = hasCjk(request.query);
  const vector = mode === "bm25" && !understanding.jobless ? undefined : request.similarTo?.vector ?? (await deps.embedder.embedQuery(text));
  const keywordText = terms.join(" ") || request.query;
  await turn.pause();
  stopIfLate(deadline, "retrieve");
  // Decoding candidates the first time is long work (a deep page's thousands): the turn is offered
  // there too, once for both retrievers (they run side by side and hold one turn).
  let offering: Promise<void> | undefined;
  const retrieving = () => {
    stopIfLate(deadline, "retrieve");
    return (offering ??= turn.pause().finally(() => (offering = undefined)));
  };
  const [nearest, keyword] = await Promise.all([
    vector === undefined ? [] : deps.store.nearest(vector, filters, depth, retrieving),
    mode === "vector" || (understanding.jobless && !cjkScript)
      ? []
      : deps.store.keyword(
          keywordClauses({ text: keywordText, expansions: mode === "hybrid" ? expansions : [], cjk: [...new Set(cjkBigrams(request.query))] }),
          filters,
          depth,
          retrieving,
        ),
  ]);

  const candidates = new Map<string, Candidate>();
  nearest.forEach(({ row, cosine }, i) => candidates.set(row.id, { row, cosine, bm25: 0, bm25Rank: null, vectorRank: i + 1 }));
  keyword.forEach(({ row, score }, i) => {
    const known = candidates.get(row.id);
    if (known) Object.assign(known, { bm25: score, bm25Rank: i + 1 });
    else candidates.set(row.id, { row, cosine: vector ? dot(vector, row.vector) : 0, bm25: score, bm25Rank: i + 1, vectorRank: null });
  });
  await turn.pause();
  if (understanding.jobless) return joblessMatches([...candidates.values()], request.inferred ?? {}, cjkScript);
  const similar = request.similarTo && { cjk: request.similarTo.cjk ?? false, head: titleHead(request.similarTo.title ?? request.query) };
  const checkpoint = async () => {
    stopIfLate(deadline, "rank");
    await turn.pause();
  };
  return scoreCandidates([...candidates.values()], query, mode, namesItsJob(understanding, query), checkpoint, similar);
}

/** At least LONG_REQUEST_WORDS words, and a sentence or clause ends before more follows. */
function isLongRequest(query: string): boolean {
  return (query.match(/[\p{L}\p{N}]+/gu) ?? []).length >= LONG_REQUEST_WORDS && /[.?!:;](\s+\S)/u.test(query);
}

/**
 * A query of conditions only: every candidate meets them, so each scores JOBLESS_SCORE. Postings in the
 * query's script (Chinese or not) come first; then those whose own fields state an inferred condition
 * (employment type FULL_TIME, seniority senior) before those that meet it otherwise (no type stated, a
 * word of the title), newest first within each, then by id.
 */
function joblessMatches(candidates: Candidate[], inferred: SearchRequest["filters"], cjkScript: boolean): Ranked[] {
  const states = (wanted: string[] | undefined, value: string | null | undefined) => (value && wanted?.includes(value) ? 1 : 0);
  const stated = (row: Ranked["row"]) => states(inferred.employment_type, row.employment_type) + states(inferred.seniority, row.seniority_level);
  const inScript = (row: Ranked["row"]) => (row.terms.cjk.size > 0 === cjkScript ? 1 : 0);
  return candidates
    .map((c) => ({ ranked: { row: c.row, score: JOBLESS_SCORE, fused: 0, bm25Rank: c.bm25Rank, vectorRank: c.vectorRank }, script: inScript(c.row), stated: stated(c.row) }))
    .sort((a, b) => b.script - a.script || b.stated - a.stated || compareText(b.ranked.row.publish_time, a.ranked.row.publish_time) || compareText(a.ranked.row.id, b.ranked.row.id))
    .map(({ ranked }) => ranked);
}

/**
 * The ranking query of a search: in a query that says more than the Chinese words every Chinese
 * posting has ("Rust 工程师", "安卓开发"), those words ("工程师", "开发") weigh nothing as words, and
 * count as pairs only when nothing else Chinese is left.
 */
function focusedQuery(terms: string[], expansions: Understanding["expansions"], text: string, weigh: (token: string) => number) {
  const focused = withoutGenericCjk(text);
  const kept = terms.filter((term) => !hasCjk(term) || /[\p{L}\p{N}]/u.test(withoutGenericCjk(term)));
  // Generic pairs still tell a Chinese posting from others when the rest is in Latin letters ("Node.js 开发").
  return rankingQuery(kept.length > 0 ? kept : terms, expansions, text, weigh, hasCjk(focused) ? focused : text);
}

/**
 * Whether the query names its job, for ranking's evidence of whether the data holds it (`namedMiss`,
 * `namedGap`): the knowledge base is sure of it, or the query is a name of two words or fewer whether
 * the knowledge base knows it or not. Then a posting is for that job when its title holds the words.
 * CJK queries are written without spaces, so their words are not counted.
 */
function namesItsJob(understanding: Understanding, query: RankingQuery): boolean {
  return understanding.namesJob || (!query.cjkScript && query.tokens.length <= NAME_TERMS);
}

/** The filters with `ids` as one more clause (keyed by the ids, as the in-memory copy keeps rows by key). */
function withOnlyIds(filters: FilterSet, ids: string[] | undefined): FilterSet {
  if (ids === undefined) return filters;
  const key = `only-ids:${ids.length}:${Bun.hash(ids.join("\n")).toString(36)}`;
  return { clauses: [...filters.clauses, { key, kind: "equals", column: "id", values: ids }] };
}
