import { Elysia } from "elysia";
import { AppError } from "../shared/errors.ts";
import { errorResponse, noteOf } from "./http/error-response.ts";
import type { OAuthServer } from "./auth/oauth/server.ts";
import type { Config } from "./config.ts";
import { mcpRoutes, type McpDeps } from "./mcp/http.ts";
import { createMetrics, type WebhookTallies } from "./ops/metrics.ts";
import type { Outbox } from "./saved/outbox.ts";
import { beginRequest, requestContext, requestIdOf } from "./ops/request-context.ts";
import { createRequestObserver } from "./ops/request-log.ts";
import { createServiceStatus } from "./ops/status.ts";
import { openapiDocument } from "./openapi/document.ts";
import { createFairQueue } from "./search/fair-queue.ts";
import { oauthRoutes } from "./routes/oauth.ts";
import { opsRoutes } from "./routes/ops.ts";
import { savedRoutes } from "./routes/saved.ts";
import { searchRoutes } from "./routes/search.ts";
import { webRoutes } from "./routes/web.ts";
import type { JobStore } from "./store/store.ts";

export interface AppDeps extends Omit<McpDeps, "metrics" | "queue" | "store"> {
  /** The whole store: requests read it through one version's view each (store/read.ts versionViews), status reads all of it. */
  store: JobStore;
  config: Config;
  /** The webhook outbox and delivery log (server/saved/outbox.ts). */
  outbox: Outbox;
  /** The webhook sender's tallies, for /metrics; absent = no sender in this process. */
  webhooks?: WebhookTallies;
  oauth: OAuthServer;
  /** Whether a background ANN index build is running (reported by /readyz). */
  indexBuilding?: () => boolean;
}

/**
 * The HTTP application. Every response carries `x-request-id`; every error, thrown anywhere,
 * becomes the spec's body here and only here. Each request is counted in this app's own metrics
 * registry and logged in one line once its response went out. Searches of REST and MCP take turns in
 * one fair queue per app (search/fair-queue.ts).
 */
export function createApp(deps: AppDeps) {
  const status = createServiceStatus(deps);
  const metrics = createMetrics(status, { cache: deps.cache, memoryCopy: () => deps.store.memoryCopy(), dataDir: deps.config.dataDir, webhooks: deps.webhooks });
  const finish = createRequestObserver({ log: deps.log, metrics });
  const queue = createFairQueue();
  const routeDeps = { ...deps, metrics, queue, timeoutMs: deps.config.limits.searchTimeoutMs, onCancelled: metrics.observeCancelled };
  return new Elysia()
    .onRequest(({ request, set }) => {
      const id = crypto.randomUUID();
      set.headers["x-request-id"] = id;
      beginRequest(request, id);
    })
    .onError({ as: "global" }, ({ code, error, request }) => {
      const requestId = requestIdOf(request);
      const appError = toAppError(code, error);
      if (appError.code === "INTERNAL_ERROR") {
        deps.log.error("unexpected error", { request_id: requestId, route: new URL(request.url).pathname, error });
      }
      const context = requestContext(request);
      if (context) {
        context.errorStatus = appError.status;
        context.error = noteOf(appError);
      }
      return errorResponse(appError, requestId);
    })
    .onAfterResponse({ as: "global" }, finish)
    .use(opsRoutes({ config: deps.config, metrics, status }))
    .use(searchRoutes(routeDeps))
    .use(savedRoutes(routeDeps))
    .use(mcpRoutes(routeDeps))
    .use(oauthRoutes(deps))
    .use(openapiDocument())
    .use(webRoutes());
}

export type App = ReturnType<typeof createApp>;

// --- internal ---

function toAppError(code: string | number, error: unknown): AppError {
  if (error instanceof AppError) return error;
  switch (code) {
    case "NOT_FOUND":
      return new AppError("NOT_FOUND", "Not found");
    case "PARSE":
      return new AppError("INVALID_JSON", "Malformed JSON body");
    case "VALIDATION":
      return new AppError("INVALID_PARAMETER", "Invalid request");
    default:
      return new AppError("INTERNAL_ERROR", "Internal server error", { cause: error });
  }
}
