import { Elysia } from "elysia";
import { AppError } from "../../shared/errors.ts";
import { sameBytes } from "../auth/secrets.ts";
import type { Config } from "../config.ts";
import { healthOperation, metricsOperation, readyOperation } from "../openapi/mcp-operations.ts";
import type { Metrics } from "../ops/metrics.ts";
import type { ServiceStatus } from "../ops/status.ts";

/**
 * For operators and orchestrators, no API key needed:
 * - GET /healthz: 200 `{"status":"ok"}` while the process serves HTTP (liveness).
 * - GET /readyz: 200 when the jobs table is open and readable and the model is loaded, else 503;
 *   the body says which check failed (readiness).
 * - GET /metrics: Prometheus text. Open unless METRICS_TOKEN is set, then it needs
 *   `Authorization: Bearer <METRICS_TOKEN>` (403 otherwise).
 */
export function opsRoutes(deps: { config: Config; metrics: Metrics; status: ServiceStatus }) {
  const { metrics, status } = deps;
  const token = deps.config.metricsToken === undefined ? undefined : Buffer.from(`Bearer ${deps.config.metricsToken}`);
  return new Elysia({ name: "ops-routes" })
    .get("/healthz", () => json({ status: "ok" }), { detail: healthOperation })
    .get("/readyz", async () => {
      const readiness = await status.readiness();
      return json({ status: readiness.ready ? "ready" : "not_ready", checks: readiness.checks }, readiness.ready ? 200 : 503);
    }, { detail: readyOperation })
    .get("/metrics", async ({ request }) => {
      if (token && !sameSecret(request.headers.get("authorization"), token)) {
        throw new AppError("AUTH_INVALID_KEY", "Invalid metrics token");
      }
      return new Response(await metrics.render(), { headers: { "content-type": metrics.contentType, "cache-control": "no-store" } });
    }, { detail: metricsOperation });
}

// --- internal ---

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

function sameSecret(given: string | null, expected: Buffer): boolean {
  return given !== null && sameBytes(Buffer.from(given), expected);
}
