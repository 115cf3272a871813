import { baseUrl } from "./base-url.ts";

/**
 * Browser access to /mcp and /v1 (MCP's Streamable HTTP security warning, and CORS).
 * A browser names the page that sends a request in `Origin`; clients that are not browsers send
 * none and are not affected. Allowed: the service's own origin (PUBLIC_URL's, else the one the
 * request came to), the ALLOWED_ORIGINS list, or any origin when that list holds `*`.
 * No credentials travel by cookie, so an allowed origin gets `Access-Control-Allow-Origin` with
 * its own name and never `Access-Control-Allow-Credentials`.
 */
export interface CorsPolicy {
  publicUrl?: string;
  allowedOrigins: string[];
}

/** What browser clients of /mcp and /v1 send beyond the CORS-safelisted request headers. */
export const ALLOWED_REQUEST_HEADERS = "authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id, x-api-key";
/** What they must be able to read: the 401's challenge (OAuth discovery), the session, the rate-limit wait. */
export const EXPOSED_RESPONSE_HEADERS = "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, Retry-After, X-Request-Id";

/** The request's Origin when a browser sent one that is not allowed; undefined when allowed or absent. */
export function foreignOrigin(policy: CorsPolicy, request: Request): string | undefined {
  const origin = request.headers.get("origin");
  return origin === null || originAllowed(policy, origin, request) ? undefined : origin;
}

/** Headers for an actual (not preflight) response: `Vary: Origin` always, the grant only for an allowed origin. */
export function corsHeaders(policy: CorsPolicy, request: Request): Record<string, string> {
  const origin = request.headers.get("origin");
  if (origin === null || !originAllowed(policy, origin, request)) return { vary: "Origin" };
  return {
    vary: "Origin",
    "access-control-allow-origin": origin,
    "access-control-expose-headers": EXPOSED_RESPONSE_HEADERS,
  };
}

/** The answer to an OPTIONS preflight: 204 with the grant for an allowed origin, 403 without one otherwise. */
export function preflightResponse(policy: CorsPolicy, request: Request, methods: string): Response {
  const origin = request.headers.get("origin");
  if (origin === null || !originAllowed(policy, origin, request)) {
    return new Response(null, { status: 403, headers: { vary: "Origin" } });
  }
  return new Response(null, {
    status: 204,
    headers: {
      vary: "Origin",
      "access-control-allow-origin": origin,
      "access-control-allow-methods": methods,
      "access-control-allow-headers": ALLOWED_REQUEST_HEADERS,
      "access-control-max-age": "600",
    },
  });
}

// --- internal ---

function originAllowed(policy: CorsPolicy, origin: string, request: Request): boolean {
  if (policy.allowedOrigins.includes("*") || policy.allowedOrigins.includes(origin)) return true;
  return origin === new URL(baseUrl(policy.publicUrl, request)).origin;
}
