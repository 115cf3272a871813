import { Elysia } from "elysia";
import { AppError, invalidParameter, QUOTED_VALUE_MAX, quoteValue } from "../../shared/errors.ts";
import { parseSearchRequest, type CityCounts, type JobResponse, type SearchResponse } from "../../shared/search.ts";
import { isRepeatable } from "../../shared/search-params.ts";
import type { KeyStore } from "../auth/api-keys.ts";
import { requireApiKey } from "../auth/guard.ts";
import { readBodyText } from "../http/body-limit.ts";
import { enforceRateLimit, enterInFlight, type RateLimiter } from "../auth/rate-limit.ts";
import type { Config } from "../config.ts";
import { corsHeaders, preflightResponse } from "../http/cors.ts";
import type { Metrics } from "../ops/metrics.ts";
import { notePrincipal, noteQuery, requestIdOf } from "../ops/request-context.ts";
import { parseMatchRequest, type MatchResponse } from "../../shared/match.ts";
import { matchJobs } from "../match/match.ts";
import { citiesOperation, filtersOperation, jobOperation, matchOperation, searchGetOperation, searchPostOperation, similarOperation } from "../openapi/operations.ts";
import type { FairQueue } from "../search/fair-queue.ts";
import { searchJobs, type SearchDeps, type SearchOutcome } from "../search/search.ts";
import { getPosting, similarJobs } from "../search/similar.ts";

/**
 * GET and POST /v1/search (job-search-service.md §4.1, §4.2): API key, a slot in flight, its rate limit, then parameters, then the search
 * (in the key's turns of the fair queue).
 * GET /v1/cities (ours, not in the spec): the cities with posting counts, for pickers and the CLI.
 * GET /v1/jobs/{id} and /v1/jobs/{id}/similar (ours): one posting, and postings like it (a search).
 * POST /v1/match (ours): a résumé or profile matched to postings (server/match/); the profile is never noted or logged.
 * CORS (cors.ts) grants only allowed origins; others are not refused, since a key in the
 * x-api-key header is never sent by a browser on its own (no cookies, nothing to forge).
 */
export function searchRoutes(deps: SearchDeps & { keys: KeyStore; limiter: RateLimiter; config: Config; metrics: Metrics; queue: FairQueue }) {
  const identify = async (request: Request) => {
    const principal = await requireApiKey(deps.keys, request.headers.get("x-api-key"));
    notePrincipal(request, principal);
    return principal;
  };
  const authorize = async (request: Request) => {
    const principal = await identify(request);
    await enforceRateLimit(deps.limiter, principal, deps.config.rateLimit.perMinute);
    return principal;
  };
  /**
   * Runs `search` in one of the principal's slots for requests in flight, then charged to its rate
   * limit. The slot comes first (as on /mcp), so a request refused for want of one costs no rate.
   * `search` gets the search dependencies with the principal's turns in the fair queue.
   */
  const limited = async <T>(request: Request, search: (searchDeps: SearchDeps) => Promise<T>): Promise<T> => {
    const principal = await identify(request);
    const slot = await enterInFlight(deps.limiter, principal, deps.config.rateLimit.inFlightPerKey);
    try {
      await enforceRateLimit(deps.limiter, principal, deps.config.rateLimit.perMinute);
      return await search({ ...deps, turns: () => deps.queue.turn(principal.id) });
    } finally {
      slot.leave();
    }
  };
  const respond = async (searchDeps: SearchDeps, http: Request, raw: Record<string, unknown>, fromQueryString: boolean, requestId: string) => {
    const started = performance.now();
    const request = parseSearchRequest(raw, fromQueryString ? "get" : "post");
    noteQuery(http, request.query);
    return answer(await searchJobs(searchDeps, request), started, requestId);
  };
  const answer = (outcome: SearchOutcome, started: number, requestId: string): SearchResponse => {
    const elapsed = performance.now() - started;
    deps.metrics.observeSearch("rest", elapsed / 1000);
    const { results, query, facets, total_matches } = outcome;
    return {
      request_id: requestId,
      total: results.length,
      search_time_ms: Math.round(elapsed),
      results,
      query,
      ...(facets ? { facets, total_matches } : {}),
    };
  };

  const preflight = ({ request }: { request: Request }) => preflightResponse(deps.config, request, "GET, POST");
  return new Elysia({ name: "search-routes" })
    .options("/v1/search", preflight)
    .options("/v1/cities", preflight)
    .options("/v1/filters", preflight)
    .options("/v1/match", preflight)
    .onBeforeHandle(({ request, set }) => void Object.assign(set.headers, corsHeaders(deps.config, request)))
    .get("/v1/search", ({ request }) =>
      limited(request, (searchDeps) => respond(searchDeps, request, queryParameters(new URL(request.url)), true, requestIdOf(request))),
      { detail: searchGetOperation })
    .post(
      "/v1/search",
      ({ request }) =>
        limited(request, async (searchDeps) => {
          const body = await jsonBody(request, deps.config.limits.maxBodyBytes);
          return respond(searchDeps, request, body, false, requestIdOf(request));
        }),
      { parse: "none", detail: searchPostOperation },
    )
    .post(
      "/v1/match",
      ({ request }) =>
        limited(request, async (): Promise<MatchResponse> => {
          const started = performance.now();
          const match = parseMatchRequest(await jsonBody(request, deps.config.limits.maxBodyBytes), "post");
          const outcome = await matchJobs(deps, match);
          const elapsed = performance.now() - started;
          deps.metrics.observeSearch("rest", elapsed / 1000);
          return { request_id: requestIdOf(request), total: outcome.results.length, search_time_ms: Math.round(elapsed), ...outcome };
        }),
      { parse: "none", detail: matchOperation },
    )
    .get("/v1/jobs/:id", async ({ request, params }) => {
      await authorize(request);
      const body: JobResponse = { request_id: requestIdOf(request), job: await getPosting(deps, params.id) };
      return body;
    }, { detail: jobOperation })
    .get("/v1/jobs/:id/similar", ({ request, params }) =>
      limited(request, async (searchDeps) => {
        const started = performance.now();
        return answer(await similarJobs(searchDeps, params.id, queryParameters(new URL(request.url)), "get"), started, requestIdOf(request));
      }),
      { detail: similarOperation })
    .get("/v1/filters", async ({ request }) => {
      await authorize(request);
      return { request_id: requestIdOf(request), ...(await (await deps.store.view()).filterValues()) };
    }, { detail: filtersOperation })
    .get("/v1/cities", async ({ request }) => {
      await authorize(request);
      const { cityCounts } = await (await deps.store.view()).facets();
      const body: CityCounts = { request_id: requestIdOf(request), total: cityCounts.length, cities: cityCounts };
      return body;
    }, { detail: citiesOperation });
}

// --- internal ---

/**
 * Query parameters as strings; a parameter given twice is an error rather than a silent pick, but for
 * those declared repeatable (city, country), whose repeats make a list.
 */
function queryParameters(url: URL): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    if (values.length > 1 && !isRepeatable(key)) throw invalidParameter(`${key.length <= QUOTED_VALUE_MAX ? key : quoteValue(key)} must be given once`);
    raw[key] = values.length > 1 ? values : values[0];
  }
  return raw;
}

/** The body as a JSON object (at most `maxBytes`); an empty body counts as `{}` (and so as a missing q). */
export async function jsonBody(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_JSON", "Malformed JSON body");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw invalidParameter("body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}
