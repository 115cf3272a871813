import { Elysia } from "elysia";
import { AppError } from "../../shared/errors.ts";
import { parseCursor, type NewJobs } from "../../shared/saved.ts";
import type { KeyStore } from "../auth/api-keys.ts";
import { requireApiKey } from "../auth/guard.ts";
import { enforceRateLimit, enterInFlight, type RateLimiter } from "../auth/rate-limit.ts";
import { baseUrl } from "../http/base-url.ts";
import { corsHeaders, preflightResponse } from "../http/cors.ts";
import type { Metrics } from "../ops/metrics.ts";
import { notePrincipal, requestIdOf } from "../ops/request-context.ts";
import {
  savedCreateOperation, savedDeleteOperation, savedDeliveriesOperation, savedFeedOperation, savedFeedTokenOperation, savedGetOperation, savedListOperation, savedNewOperation,
} from "../openapi/saved-operations.ts";
import type { FairQueue } from "../search/fair-queue.ts";
import type { SearchDeps } from "../search/search.ts";
import { savedSearchFeed } from "../saved/feed.ts";
import { deliveryView } from "../saved/saved.ts";
import { LOG_KEPT, type Outbox } from "../saved/outbox.ts";
import { claimNewMatches, newJobsBody, newMatchesSince, type LoadTimes } from "../saved/new-jobs.ts";
import type { SavedSearchStore } from "../saved/store.ts";
import { createSavedSearch, deleteSavedSearch, findSavedSearch, listSavedSearches, rotateFeedToken, savedView, type SavedDeps } from "../saved/saved.ts";
import { jsonBody } from "./search.ts";

/**
 * Saved searches (ours, docs/api.md "Extensions: saved searches, feeds, webhooks"): the caller's own,
 * by API key; another key's are NOT_FOUND. Each request counts against the key's rate limit; a check
 * for new postings (a search) also takes one of its slots in flight and its turn in the fair queue.
 * GET /v1/feeds/{token}: a saved search's Atom feed, no key (the token is the credential).
 */
export function savedRoutes(deps: SavedDeps & { keys: KeyStore; limiter: RateLimiter; metrics: Metrics; queue: FairQueue; outbox: Outbox }) {
  const authorize = async (request: Request) => {
    const principal = await requireApiKey(deps.keys, request.headers.get("x-api-key"));
    notePrincipal(request, principal);
    await enforceRateLimit(deps.limiter, principal, deps.config.rateLimit.perMinute);
    return principal;
  };
  const base = (request: Request) => baseUrl(deps.config.publicUrl, request);
  const check = async (request: Request, id: string): Promise<NewJobs & { request_id: string; search_time_ms: number }> => {
    const principal = await requireApiKey(deps.keys, request.headers.get("x-api-key"));
    notePrincipal(request, principal);
    const slot = await enterInFlight(deps.limiter, principal, deps.config.rateLimit.inFlightPerKey);
    try {
      await enforceRateLimit(deps.limiter, principal, deps.config.rateLimit.perMinute);
      const started = performance.now();
      const since = new URL(request.url).searchParams.get("since");
      const record = await findSavedSearch(deps, principal.id, id);
      const searchDeps: SearchDeps & { saved: SavedSearchStore; loads: LoadTimes } = { ...deps, turns: () => deps.queue.turn(principal.id) };
      const found = since === null ? await claimNewMatches(searchDeps, record) : await newMatchesSince(searchDeps, record, parseCursor(since));
      const elapsed = performance.now() - started;
      deps.metrics.observeSearch("rest", elapsed / 1000);
      return { request_id: requestIdOf(request), search_time_ms: Math.round(elapsed), ...newJobsBody(found) };
    } finally {
      slot.leave();
    }
  };
  const preflight = ({ request }: { request: Request }) => preflightResponse(deps.config, request, "GET, POST, DELETE");

  return new Elysia({ name: "saved-routes" })
    .options("/v1/saved-searches", preflight)
    .options("/v1/saved-searches/*", preflight)
    .onBeforeHandle(({ request, set }) => void Object.assign(set.headers, corsHeaders(deps.config, request)))
    .post("/v1/saved-searches", async ({ request, set }) => {
      const principal = await authorize(request);
      const body = await jsonBody(request, deps.config.limits.maxBodyBytes);
      const created = await createSavedSearch(deps, principal.id, body, "post", base(request));
      set.status = 201;
      return { request_id: requestIdOf(request), ...created };
    }, { parse: "none", detail: savedCreateOperation })
    .get("/v1/saved-searches", async ({ request }) => {
      const principal = await authorize(request);
      const saved = await listSavedSearches(deps, principal.id, base(request));
      return { request_id: requestIdOf(request), total: saved.length, saved_searches: saved };
    }, { detail: savedListOperation })
    .get("/v1/saved-searches/:id", async ({ request, params }) => {
      const principal = await authorize(request);
      return { request_id: requestIdOf(request), ...savedView(await findSavedSearch(deps, principal.id, params.id), base(request)) };
    }, { detail: savedGetOperation })
    .delete("/v1/saved-searches/:id", async ({ request, params }) => {
      const principal = await authorize(request);
      await deleteSavedSearch(deps, principal.id, params.id);
      await deps.outbox.forget(params.id);
      return new Response(null, { status: 204 });
    }, { detail: savedDeleteOperation })
    .get("/v1/saved-searches/:id/new", ({ request, params }) => check(request, params.id), { detail: savedNewOperation })
    .get("/v1/saved-searches/:id/deliveries", async ({ request, params }) => {
      const principal = await authorize(request);
      await findSavedSearch(deps, principal.id, params.id);
      const deliveries = (await deps.outbox.log(params.id, LOG_KEPT)).map(deliveryView);
      return { request_id: requestIdOf(request), total: deliveries.length, deliveries };
    }, { detail: savedDeliveriesOperation })
    .post("/v1/saved-searches/:id/feed-token", async ({ request, params }) => {
      const principal = await authorize(request);
      return { request_id: requestIdOf(request), ...(await rotateFeedToken(deps, principal.id, params.id, base(request))) };
    }, { detail: savedFeedTokenOperation })
    .get("/v1/feeds/:token", async ({ request, params }) => {
      const record = await deps.saved.byFeedToken(params.token);
      if (!record) throw new AppError("NOT_FOUND", "feed not found");
      const xml = await savedSearchFeed(deps, record, `${base(request)}/v1/feeds/${params.token}`);
      return new Response(xml, { headers: { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "no-cache" } });
    }, { detail: savedFeedOperation });
}
