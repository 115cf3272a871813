import { parseSearchRequest, PLAUSIBLE_SCORE, readFilters, type QueryEcho, type SearchRequest } from "../../shared/search.ts";
import type { JobResult } from "../../shared/job.ts";
import type { JobStore } from "../store/store.ts";
import { nameKey } from "../text/fold.ts";
import { understandQuery } from "../understand/understand.ts";

/*
 * Between a request and its search: what the words say (server/understand/) made into the request
 * searched, and the `query` echo of the response, with hints about the page it gave.
 */

export interface UnderstoodRequest {
  /** The request to search: the remaining words, the filters read from them as `inferred`. */
  request: SearchRequest;
  /** The response's `query` for the page this request gave. */
  echo(results: JobResult[], asked: SearchRequest): QueryEcho;
}

export async function understandRequest(deps: { store: Pick<JobStore, "facets" | "termStats"> }, request: SearchRequest): Promise<UnderstoodRequest> {
  const understood = request.understand && request.similarTo === undefined ? await understand(deps, request) : undefined;
  const effective = understood ? { ...request, query: understood.text, inferred: readFilters(understood.filters) } : request;
  const city = request.filters.city;
  const cityLike = city === undefined ? undefined : await similarCity(deps, city);
  return {
    request: effective,
    echo(results, asked) {
      const query: QueryEcho = {
        text: effective.query,
        applied_filters: understood?.filters ?? {},
        corrected: understood?.corrected ?? null,
        hints: [...(understood?.hints ?? [])],
      };
      if (results.length === 0 && asked.offset === 0 && Object.keys(query.applied_filters).length > 0) {
        query.hints.push(`no posting matches the filters read from the query (${describe(query.applied_filters)}); search for the exact words instead with understand=false`);
      }
      if (results.length === 0 && cityLike !== undefined) query.hints.push(`no city '${city}'; did you mean '${cityLike}'?`);
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

// --- internal ---

/** The request's words understood against the data's places and vocabulary and the clock. */
async function understand(deps: { store: Pick<JobStore, "facets" | "termStats"> }, request: SearchRequest) {
  const facets = await deps.store.facets();
  return understandQuery(request.query, request.filters, { facets, stats: deps.store.termStats(), now: new Date() });
}

/**
 * A city of the data that `city` (absent from it) differs from only in case or accents ("london" →
 * "London"); the city filter stays exact, as the spec says, and a hint names this one.
 */
async function similarCity(deps: { store: Pick<JobStore, "facets"> }, city: string): Promise<string | undefined> {
  const { cities } = await deps.store.facets();
  if (cities.includes(city)) return undefined;
  const key = nameKey(city);
  return cities.find((candidate) => nameKey(candidate) === key);
}

function describe(filters: Record<string, unknown>): string {
  return Object.entries(filters).map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(",") : String(value)}`).join(", ");
}
