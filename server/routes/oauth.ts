import { InvalidClientError, InvalidClientMetadataError, InvalidRequestError, OAuthError, ServerError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { Elysia } from "elysia";
import type { AuthorizationCheck, AuthorizationRequest } from "../auth/oauth/authorize.ts";
import { authorizationServerMetadata, protectedResourceMetadata } from "../auth/oauth/metadata.ts";
import { PAGE_HEADERS, renderErrorPage, renderSignInPage } from "../auth/oauth/page.ts";
import type { AuthorizationServer, OAuthServer } from "../auth/oauth/server.ts";
import { createSignInLimit, type SignInLimit } from "../auth/sign-in-limit.ts";
import type { RateLimiter } from "../auth/rate-limit.ts";
import { hitRegistrationLimit } from "../auth/registration-limit.ts";
import { baseUrl } from "../http/base-url.ts";
import * as docs from "../openapi/mcp-operations.ts";
import { clientIp } from "../http/client-ip.ts";
import type { Config } from "../config.ts";
import { AppError } from "../../shared/errors.ts";
import { readBodyText } from "../http/body-limit.ts";

/**
 * OAuth for /mcp: RFC 9728 resource metadata always; the built-in authorization server's
 * metadata, /register, /authorize, /token and /revoke only when no external issuer is configured.
 * Errors are answered here in OAuth's own shapes (RFC 6749 §5.2, RFC 7591 §3.2.2), never thrown on.
 * Failed sign-ins count per client address and key id on `limiter` (sign-in-limit.ts).
 */
export function oauthRoutes(deps: { config: Config; oauth: OAuthServer; limiter: RateLimiter }) {
  const { config, oauth } = deps;
  const resourceMetadata = ({ request }: { request: Request }) =>
    json(protectedResourceMetadata(baseUrl(config.publicUrl, request), config));
  const plugin = new Elysia()
    .get("/.well-known/oauth-protected-resource", resourceMetadata, { detail: docs.resourceMetadataOperation })
    .get("/.well-known/oauth-protected-resource/mcp", resourceMetadata, { detail: docs.resourceMetadataOperation })
    .options("/.well-known/*", preflight);
  if (oauth.authorizationServer) {
    plugin.use(authorizationServerRoutes(config, oauth.authorizationServer, createSignInLimit(deps.limiter), deps.limiter));
  }
  return plugin;
}

// --- internal ---

function authorizationServerRoutes(config: Config, as: AuthorizationServer, signIn: SignInLimit, limiter: RateLimiter) {
  const base = (request: Request) => baseUrl(config.publicUrl, request);
  return new Elysia()
    .get("/.well-known/oauth-authorization-server", ({ request }) => json(authorizationServerMetadata(base(request))), { detail: docs.authorizationServerMetadataOperation })
    .post("/register", async ({ request, server }) => {
      // Registration needs no credentials: each address (IPv6: each /64) may register a few clients an hour.
      const ip = clientIp(request, server?.requestIP(request)?.address, config.trustProxy);
      const decision = await hitRegistrationLimit(limiter, ip, config.oauth.registrationsPerHour);
      if (!decision.allowed) {
        const message = `too many client registrations from this address; try again in ${decision.retryAfter} s`;
        return json({ error: "too_many_requests", error_description: message }, 429, { "retry-after": String(decision.retryAfter) });
      }
      return answer(async () => json(await as.register(await jsonBody(request)), 201));
    }, { parse: "none", detail: docs.registerOperation })
    .get("/authorize", async ({ request }) => {
      const params = uniqueParams(new URL(request.url).searchParams);
      if (params instanceof OAuthError) return page(400, renderErrorPage("Invalid request", params.message));
      const b = base(request);
      return answerCheck(await as.checkAuthorization(params, b), (authRequest) =>
        page(200, renderSignInPage({ request: authRequest, action: `${b}/authorize`, formToken: as.formToken(authRequest, b) })));
    }, { detail: docs.authorizeOperation })
    .post("/authorize", async ({ request, server }) => {
      const b = base(request);
      if (crossSite(request, b)) return page(403, renderErrorPage("Request refused", "This form can only be sent from this site's own sign-in page."));
      const params = await bodyParams(request).catch((error: unknown) => {
        if (error instanceof OAuthError) return error;
        throw error;
      });
      if (params instanceof OAuthError) return page(400, renderErrorPage("Invalid request", params.message));
      return answerCheck(await as.checkAuthorization(params, b), async (authRequest) => {
        if (!as.checkFormToken(authRequest, b, params.csrf_token)) {
          return page(400, renderErrorPage("Sign-in form expired", "Go back to your application and start signing in again."));
        }
        if (params.decision === "deny") return redirect(as.deny(authRequest, b));
        const apiKey = params.api_key ?? "";
        const ip = clientIp(request, server?.requestIP(request)?.address, config.trustProxy);
        const wait = await signIn.lockedFor(ip, apiKey);
        if (wait !== undefined) return lockedOut(wait);
        const location = await as.approve(authRequest, apiKey, b);
        if (location) return redirect(location);
        if (apiKey.trim()) await signIn.recordFailure(ip, apiKey);
        const error = params.api_key ? "That API key is not valid or has been revoked." : "Enter your API key.";
        const formToken = as.formToken(authRequest, b);
        return page(200, renderSignInPage({ request: authRequest, action: `${b}/authorize`, formToken, error }));
      });
    }, { parse: "none", detail: docs.authorizeFormOperation })
    .post("/token", ({ request }) =>
      answer(async () => json(await as.token(await bodyParams(request), request.headers.get("authorization"), base(request)))),
      { parse: "none", detail: docs.tokenOperation })
    .post("/revoke", ({ request }) =>
      answer(async () => {
        await as.revoke(await bodyParams(request), request.headers.get("authorization"), base(request));
        return new Response(null, { status: 200, headers: CORS });
      }),
      { parse: "none", detail: docs.revokeOperation })
    .options("/register", preflight)
    .options("/token", preflight)
    .options("/revoke", preflight);
}

/** An invalid request gets an error page (never a redirect), a valid one goes on. */
function answerCheck(
  check: AuthorizationCheck,
  onValid: (request: AuthorizationRequest) => Response | Promise<Response>,
): Response | Promise<Response> {
  if (check.kind === "invalid") {
    return page(400, renderErrorPage("Invalid authorization request", `${check.error.message}. Go back to your application and start signing in again.`));
  }
  return onValid(check.request);
}

/**
 * A browser always sends Origin with a form POST (and Sec-Fetch-Site where supported): a post from
 * another site is refused here, so a third-party page cannot submit the form. Clients that are not
 * browsers send neither and still need the form's token.
 */
function crossSite(request: Request, base: string): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(base).origin) return true;
  return request.headers.get("sec-fetch-site") === "cross-site";
}

/**
 * Endpoints that browser-based MCP clients call from their own origin, open to any origin as the
 * MCP SDK's own auth router has them: no cookies are involved, every credential travels in the
 * body or Authorization header, so another site's page gains nothing it did not already hold.
 */
const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "WWW-Authenticate" };

function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
      "access-control-max-age": "86400",
    },
  });
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache", ...CORS, ...headers },
  });
}

/** Runs a JSON endpoint; OAuth errors become their RFC 6749 §5.2 body (401 for invalid_client). */
async function answer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    if (error instanceof InvalidClientError) {
      return json(error.toResponseObject(), 401, { "www-authenticate": 'Basic realm="oauth", charset="UTF-8"' });
    }
    return json(error.toResponseObject(), error instanceof ServerError ? 500 : 400);
  }
}

function page(status: number, html: string, headers: Record<string, string> = {}): Response {
  return new Response(html, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

function lockedOut(retryAfter: number): Response {
  const minutes = Math.ceil(retryAfter / 60);
  const message = `Too many wrong API keys were entered from your network or for this key. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  return page(429, renderErrorPage("Too many attempts", message), { "retry-after": String(retryAfter) });
}

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
}

/** OAuth forms are small; a larger body is refused without being read whole. */
const MAX_BODY_BYTES = 64 * 1024;
/** Client metadata: what MCP clients send is under 1 KB. */
const MAX_REGISTRATION_BYTES = 8 * 1024;

/** The body within `maxBytes` and the body timeout; past either, `refuse` makes the OAuth error. */
async function readBody(request: Request, maxBytes = MAX_BODY_BYTES, refuse = (message: string): OAuthError => new InvalidRequestError(message)): Promise<string> {
  try {
    return await readBodyText(request, maxBytes);
  } catch (error) {
    if (error instanceof AppError && error.code === "PAYLOAD_TOO_LARGE") throw refuse(`request body is too large (at most ${maxBytes} bytes)`);
    if (error instanceof AppError && error.code === "REQUEST_TIMEOUT") throw refuse(error.message);
    throw error;
  }
}

/** RFC 7591 bodies are JSON of at most 8 KiB; anything else is invalid client metadata. */
async function jsonBody(request: Request): Promise<unknown> {
  const text = await readBody(request, MAX_REGISTRATION_BYTES, (message) => new InvalidClientMetadataError(message));
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidClientMetadataError("the body must be a JSON object of client metadata");
  }
}

/** Form-encoded parameters (what OAuth specifies), or a flat JSON object of strings, which some clients send. */
async function bodyParams(request: Request): Promise<Record<string, string>> {
  const text = await readBody(request);
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("json")) {
    const params = uniqueParams(new URLSearchParams(text));
    if (params instanceof OAuthError) throw params;
    return params;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidRequestError("malformed JSON body");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new InvalidRequestError("body must be an object");
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === "string") params[name] = value;
    else if (typeof value === "number" || typeof value === "boolean") params[name] = String(value);
    else throw new InvalidRequestError(`${name} must be a string`);
  }
  return params;
}

/** RFC 6749 §3.1: parameters must not be repeated; a repeated one makes the request invalid. */
function uniqueParams(search: URLSearchParams): Record<string, string> | OAuthError {
  const params: Record<string, string> = {};
  for (const [name, value] of search) {
    if (Object.hasOwn(params, name)) return new InvalidRequestError(`${name} is given more than once`);
    params[name] = value;
  }
  return params;
}
