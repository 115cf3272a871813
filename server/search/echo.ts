import { parseSearchRequest, PLAUSIBLE_SCORE, readFilters, type QueryEcho, type SearchRequest } from "../../shared/search.ts";
import type { JobResult } from "../../shared/job.ts";
import type { JobStore } from "../store/store.ts";
import { nameKey } from "../places/names.ts";
import type { Embedder } from "../embedding/embedder.ts";
import { understandQuery, withOccupationsByMeaning, type Understanding } from "../understand/understand.ts";

/*
 * Between a request and its search: what the words say (server/understand/) made into the request
 * searched, and the `query` echo of the response, with hints about the page it gave.
 */

/**
 * The request to search (the remaining words, the filters read from them as `inferred`), what its
 * words were understood to say, and the response's `query` for the page it gave. With understand=false
 * and for similar jobs the words are taken as typed: no condition is read, none corrected.
 */
export async function understandRequest(
  deps: UnderstandDeps,
  request: SearchRequest,
): Promise<{ request: SearchRequest; understanding: Understanding; echo(results: JobResult[], asked: SearchRequest): QueryEcho }> {
  const conditions = request.understand && request.similarTo === undefined;
  const understanding = conditions ? await understand(deps, request) : understandQuery(request.query, request.filters);
  const effective = conditions ? { ...request, query: understanding.text, inferred: readFilters(understanding.filters) } : request;
  const cityLikes = await similarCities(deps, [request.filters.city ?? []].flat());
  return {
    request: effective,
    understanding,
    echo(results, asked) {
      const query: QueryEcho = {
        text: effective.query,
        applied_filters: understanding.filters,
        corrected: understanding.corrected,
        hints: [...understanding.hints],
      };
      if (results.length === 0 && asked.offset === 0 && Object.keys(query.applied_filters).length > 0) {
        query.hints.push(`no posting matches the filters read from the query (${describe(query.applied_filters)}); search for the exact words instead with understand=false`);
      }
      if (results.length === 0) for (const [city, like] of cityLikes) query.hints.push(`no city '${city}'; did you mean '${like}'?`);
      if (results.length > 0 && asked.offset === 0 && Math.max(...results.map((r) => r.score)) < PLAUSIBLE_SCORE) {
        query.hints.push(`no close match: no result scores ${PLAUSIBLE_SCORE} or more, so the postings may not hold this job`);
      }
      return query;
    },
  };
}

/**
 * Reads what understanding needs of the data now (its places), so the first search does not wait
 * for it. The spelling index is built later, by the first query with a word the postings barely use.
 */
export async function prepareUnderstanding(deps: { store: Pick<JobStore, "facets" | "termStats"> }): Promise<void> {
  await understand(deps, parseSearchRequest({ q: "warm up" }, "post"));
}

/** What understanding reads: the data's places and vocabulary, and the embedder for what words mean. */
export interface UnderstandDeps {
  store: Pick<JobStore, "facets" | "termStats">;
  /** Absent: occupations are found by the words alone (the server's warm-up, before the model is loaded). */
  embedder?: Embedder;
}

// --- internal ---

/** The request's words understood against the data's places and vocabulary and the clock. */
/**
 * The request's words understood against the data's places and vocabulary and the clock, and, with an
 * embedder, against what they mean (occupations described rather than named).
 */
async function understand(deps: UnderstandDeps, request: SearchRequest) {
  const facets = await deps.store.facets();
  const understood = understandQuery(request.query, request.filters, { facets, stats: deps.store.termStats(), now: new Date() });
  return deps.embedder ? withOccupationsByMeaning(understood, deps.embedder) : understood;
}

/**
 * For each of `asked` absent from the data, a city of the data it differs from only in case or accents
 * ("london" → "London"); the city filter stays exact, as the spec says, and a hint names this one.
 */
async function similarCities(deps: { store: Pick<JobStore, "facets"> }, asked: string[]): Promise<Array<[city: string, like: string]>> {
  if (asked.length === 0) return [];
  const { cities } = await deps.store.facets();
  return asked.flatMap((city): Array<[string, string]> => {
    if (cities.includes(city)) return [];
    const key = nameKey(city);
    const like = cities.find((candidate) => nameKey(candidate) === key);
    return like === undefined ? [] : [[city, like]];
  });
}

function describe(filters: Record<string, unknown>): string {
  return Object.entries(filters).map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(",") : String(value)}`).join(", ");
}
