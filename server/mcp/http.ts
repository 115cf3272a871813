import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { Elysia } from "elysia";
import { AppError } from "../../shared/errors.ts";
import { errorResponse } from "../http/error-response.ts";
import type { KeyStore } from "../auth/api-keys.ts";
import { requireApiKey } from "../auth/guard.ts";
import type { Principal } from "../auth/principal.ts";
import { enforceRateLimit, enterInFlight, type RateLimiter, type Slot } from "../auth/rate-limit.ts";
import { baseUrl, resourceMetadataUrl } from "../http/base-url.ts";
import { readBodyText } from "../http/body-limit.ts";
import type { Config } from "../config.ts";
import { corsHeaders, foreignOrigin, preflightResponse } from "../http/cors.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../ops/metrics.ts";
import { notePrincipal, noteTool, requestIdOf } from "../ops/request-context.ts";
import { mcpOperation } from "../openapi/mcp-operations.ts";
import type { FairQueue } from "../search/fair-queue.ts";
import type { SearchDeps } from "../search/search.ts";
import type { SavedSearchStore } from "../saved/store.ts";
import type { LoadTimes } from "../saved/new-jobs.ts";
import { jsonRpcError, refusedInBatch } from "./errors.ts";
import { createMcpServer } from "./server.ts";

export interface McpDeps extends SearchDeps {
  keys: KeyStore;
  /** Saved searches (server/saved/): the tools save_search, list_saved_searches, check_new_jobs. */
  saved: SavedSearchStore;
  /** When postings were first loaded: what is new to a saved search. */
  loads: LoadTimes;
  log: Logger;
  limiter: RateLimiter;
  config: Config;
  metrics: Metrics;
  /** The process's fair queue: each call's search runs in its principal's turns. */
  queue: FairQueue;
  /** Resolves an OAuth access token to its principal; throws InvalidTokenError when it is not valid. */
  verifyBearer(token: string, base: string): Promise<Principal>;
}

/**
 * POST /mcp: Streamable HTTP in stateless mode, a fresh server and transport per request.
 * Bearer token first, `x-api-key` as the fallback; then the rate limit; then the SDK.
 * GET and DELETE answer 405 (stateless mode has no stream to open or session to end).
 * A browser page from an origin that is not allowed gets 403 before anything else (see cors.ts).
 */
export function mcpRoutes(deps: McpDeps) {
  const notAllowed = () => new Response(null, { status: 405, headers: { allow: "POST" } });
  return new Elysia({ name: "mcp-routes" })
    .options("/mcp", ({ request }) => preflightResponse(deps.config, request, "GET, POST, DELETE"), { detail: { hide: true } })
    .onBeforeHandle(({ request, set }) => {
      Object.assign(set.headers, corsHeaders(deps.config, request));
      if (foreignOrigin(deps.config, request) !== undefined) {
        return jsonRpcError(403, -32000, "Forbidden: requests from this Origin are not allowed", requestIdOf(request));
      }
    })
    .get("/mcp", notAllowed, { detail: { hide: true } })
    .delete("/mcp", notAllowed, { detail: { hide: true } })
    .post("/mcp", ({ request }) => handleMcp(deps, request, requestIdOf(request)), { parse: "none", detail: mcpOperation });
}

// --- internal ---

async function handleMcp(deps: McpDeps, request: Request, requestId: string): Promise<Response> {
  try {
    return await serveMcp(deps, request, requestId);
  } catch (error) {
    deps.log.error("unexpected error", { request_id: requestId, route: "/mcp", error });
    return jsonRpcError(500, -32603, "Internal error", requestId);
  }
}

async function serveMcp(deps: McpDeps, request: Request, requestId: string): Promise<Response> {
  const base = baseUrl(deps.config.publicUrl, request);
  let principal: Principal | undefined;
  try {
    principal = await authenticate(deps, request, base);
    if (principal === undefined) return unauthorized(base, requestId);
    notePrincipal(request, principal);
  } catch (error) {
    if (error instanceof InvalidTokenError) return unauthorized(base, requestId, error.message);
    if (error instanceof AppError && error.status < 500) return errorResponse(error, requestId);
    throw error;
  }

  let body: string;
  try {
    body = await readBodyText(request, deps.config.limits.maxBodyBytes);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const what = { REQUEST_TIMEOUT: "Request timeout", CLIENT_CLOSED: "Connection closed" }[error.code as string] ?? "Payload too large";
    return jsonRpcError(error.status, -32600, `${what}: ${error.message}`, requestId, {}, error.code);
  }

  const batch = parseBatch(body);
  if (batch !== undefined && batch.length > deps.config.rateLimit.mcpMaxBatch) {
    return jsonRpcError(400, -32600, `Batch too large: at most ${deps.config.rateLimit.mcpMaxBatch} messages`, requestId);
  }
  const slots: Slot[] = [];
  try {
    if (batch === undefined) {
      // One message: one request against the limits, answered 429 (or 503) as a REST request would be.
      const refusal = await admit(deps, principal, slots);
      if (refusal !== undefined) return errorResponse(refusal, requestId);
      return await runSdk(deps, request, principal, body, requestId);
    }
    // A batch: each request in it counts as one against both limits; those over get the error alone.
    const refused: object[] = [];
    const forwarded: unknown[] = [];
    for (const message of batch) {
      const id = messageIdOf(message);
      const refusal = id === undefined ? undefined : await admit(deps, principal, slots);
      if (id === undefined || refusal === undefined) forwarded.push(message);
      else refused.push(refusedInBatch(id, refusal));
    }
    if (refused.length === 0) return await runSdk(deps, request, principal, body, requestId);
    const answered = forwarded.length === 0 ? undefined : await runSdk(deps, request, principal, JSON.stringify(forwarded), requestId);
    if (answered !== undefined && answered.status !== 200 && answered.status !== 202) return answered;
    // The SDK answers a batch of one with the lone response, not an array of it.
    const sdkAnswer: unknown = answered?.status === 200 ? await answered.json() : [];
    const answers = Array.isArray(sdkAnswer) ? sdkAnswer : [sdkAnswer];
    return new Response(JSON.stringify([...answers, ...refused]), {
      status: 200,
      headers: { "content-type": "application/json", "x-request-id": requestId },
    });
  } finally {
    for (const slot of slots) slot.leave();
  }
}

/** The SDK's answer to `body` (already read within the limit), in a fresh stateless server and transport. */
async function runSdk(deps: McpDeps, request: Request, principal: Principal, body: string, requestId: string): Promise<Response> {
  let failed = false;
  const caller = { owner: principal.id, base: baseUrl(deps.config.publicUrl, request), saved: deps.saved, loads: deps.loads, config: deps.config };
  const server = createMcpServer({ ...deps, turns: () => deps.queue.turn(principal.id), caller }, {
    requestId,
    onInternalError: () => (failed = true),
    onToolCall: (tool, args) => noteTool(request, tool, args),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // The SDK reads the body itself, unbounded: hand it the copy read within the limit.
    const bounded = new Request(request.url, { method: "POST", headers: request.headers, body });
    const response = await transport.handleRequest(bounded, {
      authInfo: { token: "", clientId: principal.clientId ?? principal.id, scopes: [], extra: { principal } },
    });
    response.headers.set("x-request-id", requestId);
    if (!failed) return response;
    return new Response(await response.text(), { status: 500, headers: response.headers });
  } finally {
    await transport.close();
    await server.close();
  }
}

/**
 * A slot in flight (added to `slots`) and one request of the rate limit for one call; the AppError refusing it, if any
 * (RATE_LIMITED, or SERVICE_UNAVAILABLE when the limits cannot be checked).
 */
async function admit(deps: McpDeps, principal: Principal, slots: Slot[]): Promise<AppError | undefined> {
  let slot: Slot | undefined;
  try {
    slot = await enterInFlight(deps.limiter, principal, deps.config.rateLimit.inFlightPerKey);
    await enforceRateLimit(deps.limiter, principal, deps.config.rateLimit.perMinute);
    slots.push(slot);
    return undefined;
  } catch (error) {
    slot?.leave();
    if (error instanceof AppError && (error.code === "RATE_LIMITED" || error.code === "SERVICE_UNAVAILABLE")) return error;
    throw error;
  }
}

/** The messages of a JSON-RPC batch; undefined for a single message or a body that is no JSON array. */
function parseBatch(body: string): unknown[] | undefined {
  if (!body.trimStart().startsWith("[")) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The id of a JSON-RPC request (a message with a method and an id); undefined for notifications and others. */
function messageIdOf(message: unknown): string | number | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { id, method } = message as { id?: unknown; method?: unknown };
  return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? id : undefined;
}

/** The principal of the request, or undefined when it carries neither a Bearer token nor an API key. */
async function authenticate(deps: McpDeps, request: Request, base: string): Promise<Principal | undefined> {
  const authorization = request.headers.get("authorization");
  const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (bearer) return deps.verifyBearer(bearer, base);
  if (authorization) throw new InvalidTokenError("the Authorization header must be Bearer <token>");
  const apiKey = request.headers.get("x-api-key");
  return apiKey === null ? undefined : requireApiKey(deps.keys, apiKey);
}

/** 401 as job-search-service.md §5 rule 1: JSON-RPC -32600 `Unauthorized`, id null, and where to discover how to sign in. */
function unauthorized(base: string, requestId: string, invalidToken?: string): Response {
  let challenge = `Bearer resource_metadata="${resourceMetadataUrl(base)}"`;
  if (invalidToken !== undefined) {
    challenge = `Bearer error="invalid_token", error_description="${invalidToken.replaceAll('"', "'")}", resource_metadata="${resourceMetadataUrl(base)}"`;
  }
  return jsonRpcError(401, -32600, "Unauthorized", requestId, { "www-authenticate": challenge });
}
