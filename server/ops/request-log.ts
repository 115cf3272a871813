import { errorNoteOf } from "../http/error-response.ts";
import type { Logger } from "../log.ts";
import { UNMATCHED_ROUTE, type Metrics } from "./metrics.ts";
import { requestContext } from "./request-context.ts";

/** Probes and scrapes: neither counted in the request metrics nor logged at info (they come every few seconds). */
export const OPS_ROUTES = new Set(["/healthz", "/readyz", "/metrics"]);

/** What Elysia's afterResponse hook hands over, as far as it is read here. */
export interface FinishedRequest {
  request: Request;
  /** The matched route's template; undefined when no route matched. */
  route?: string;
  set: { status?: number | string };
  /** What the handler returned, when it returned (not when it threw). */
  responseValue?: unknown;
}

/**
 * Called once per request after its response went out: observes the request metrics and writes
 * the request's log line at info, e.g.
 * `{"msg":"request","request_id":…,"method":"POST","route":"/v1/search","status":200,"duration_ms":12.3,"principal":"key:…"}`.
 * The route is the template and the raw URL is never logged (a query string may hold a search or
 * a secret); neither are headers. With LOG_LEVEL=debug the search text follows on its own line.
 */
export function createRequestObserver(deps: { log: Logger; metrics: Metrics }) {
  const { log, metrics } = deps;
  return function finish({ request, route: template, set, responseValue }: FinishedRequest): void {
    const context = requestContext(request);
    if (!context) return;
    const seconds = (performance.now() - context.started) / 1000;
    const route = template ?? UNMATCHED_ROUTE;
    const status = context.errorStatus ?? (responseValue instanceof Response ? responseValue.status : numericStatus(set.status));
    const fields: Record<string, unknown> = {
      request_id: context.id,
      method: request.method,
      route,
      status,
      duration_ms: Math.round(seconds * 10_000) / 10,
    };
    if (context.principal !== undefined) {
      fields.principal = context.principal;
      fields.auth = context.auth;
    }
    if (context.tool !== undefined) fields.tool = context.tool;
    if (OPS_ROUTES.has(route)) {
      log.debug("request", fields);
      return;
    }
    metrics.observeRequest(request.method, route, status, seconds, context.error ?? errorNoteOf(responseValue));
    log.info("request", fields);
    if (context.query !== undefined) log.debug("search query", { request_id: context.id, query: context.query });
  };
}

// --- internal ---

function numericStatus(status: number | string | undefined): number {
  if (typeof status === "number") return status;
  // Elysia also accepts a status by name; this app never sets one, so anything else is a plain 200.
  return 200;
}
