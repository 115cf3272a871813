import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { memoryProvider, parseForm, postForm, signIn } from "./support/sign-in.ts";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import {
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  type OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { Elysia } from "elysia";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from "jose";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { openKeyStore, type KeyStore } from "../server/auth/api-keys.ts";
import { createOAuthServer, type OAuthServer } from "../server/auth/oauth/server.ts";
import { createMemoryRateLimiter } from "../server/auth/rate-limit.ts";
import type { Config } from "../server/config.ts";
import { oauthRoutes } from "../server/routes/oauth.ts";
import { tempDir, testConfig } from "./support/helpers.ts";

interface Harness {
  base: string;
  dataDir: string;
  config: Config;
  keys: KeyStore;
  oauth: OAuthServer;
  stop(): Promise<void>;
}

/** The plugin alone on a real port, over a real key store and OAuth state in a temp dir. */
async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const dataDir = tempDir();
  // Many clients register from 127.0.0.1 here; the per-address limit has tests of its own.
  const config = testConfig(dataDir, { OAUTH_REGISTRATIONS_PER_HOUR: "10000", ...env });
  const keys = openKeyStore(dataDir);
  const oauth = await createOAuthServer({ config, keys });
  const limiter = createMemoryRateLimiter();
  const app = new Elysia().use(oauthRoutes({ config, oauth, limiter })).listen({ port: 0, hostname: "127.0.0.1" });
  return {
    base: `http://127.0.0.1:${app.server!.port}`,
    dataDir,
    config,
    keys,
    oauth,
    async stop() {
      await app.stop();
      oauth.close();
      keys.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const REDIRECT = "http://127.0.0.1:8765/callback";

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function register(base: string, body: object) {
  const response = await fetch(`${base}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function registerPublic(base: string, name = "Test Client") {
  const { status, body } = await register(base, { redirect_uris: [REDIRECT], client_name: name, token_endpoint_auth_method: "none" });
  expect(status).toBe(201);
  return body as { client_id: string; client_name: string };
}

function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${base}/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

function standardParams(base: string, clientId: string, challenge: string): Record<string, string> {
  return {
    response_type: "code", client_id: clientId, redirect_uri: REDIRECT, state: "st-123",
    code_challenge: challenge, code_challenge_method: "S256", resource: `${base}/mcp`, scope: "jobs:search",
  };
}

async function codeFor(t: Harness, clientId: string, apiKey: string) {
  const { verifier, challenge } = pkce();
  const response = await signIn(authorizeUrl(t.base, standardParams(t.base, clientId, challenge)), apiKey);
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location")!);
  return { code: location.searchParams.get("code")!, verifier, location };
}

function token(base: string, params: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${base}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(params),
  });
}

async function exchange(t: Harness, clientId: string, code: string, verifier: string) {
  return token(t.base, {
    grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, resource: `${t.base}/mcp`,
  });
}

async function tokensFor(t: Harness, clientId: string, apiKey: string): Promise<Required<OAuthTokens>> {
  const { code, verifier } = await codeFor(t, clientId, apiKey);
  const response = await exchange(t, clientId, code, verifier);
  expect(response.status).toBe(200);
  return (await response.json()) as Required<OAuthTokens>;
}

async function expectOAuthError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string; error_description?: string };
  expect(body.error).toBe(error);
  expect(body.error_description).toBeString();
}

async function expectRejected(promise: Promise<unknown>, description?: RegExp) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidTokenError);
  if (description) expect((error as Error).message).toMatch(description);
}

describe("built-in authorization server", () => {
  let t: Harness;
  let apiKey: string;
  let keyId: string;
  beforeAll(async () => {
    t = await startHarness();
    const created = await t.keys.create("alice");
    apiKey = created.key;
    keyId = created.id;
  });
  afterAll(() => t.stop());

  describe("metadata", () => {
    test("serves RFC 8414 authorization server metadata with the base URL as issuer", async () => {
      const response = await fetch(`${t.base}/.well-known/oauth-authorization-server`);
      expect(response.status).toBe(200);
      const body = OAuthMetadataSchema.parse(await response.json());
      expect(body).toMatchObject({
        issuer: t.base,
        authorization_endpoint: `${t.base}/authorize`,
        token_endpoint: `${t.base}/token`,
        registration_endpoint: `${t.base}/register`,
        revocation_endpoint: `${t.base}/revoke`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        scopes_supported: ["jobs:search"],
      });
      expect(body.token_endpoint_auth_methods_supported).toContain("none");
    });

    test.each(["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"])(
      "serves RFC 9728 resource metadata at %s",
      async (path) => {
        const response = await fetch(`${t.base}${path}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("access-control-allow-origin")).toBe("*");
        const body = OAuthProtectedResourceMetadataSchema.parse(await response.json());
        expect(body).toMatchObject({
          resource: `${t.base}/mcp`,
          authorization_servers: [t.base],
          bearer_methods_supported: ["header"],
          scopes_supported: ["jobs:search"],
        });
      },
    );

    test("uses PUBLIC_URL instead of the address the request came to", async () => {
      const other = await startHarness({ PUBLIC_URL: "https://jobs.example.com/" });
      try {
        const body = (await (await fetch(`${other.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
        expect(body.issuer).toBe("https://jobs.example.com");
        expect(body.token_endpoint).toBe("https://jobs.example.com/token");
      } finally {
        await other.stop();
      }
    });

    test("answers CORS preflights for browser-based clients", async () => {
      const response = await fetch(`${t.base}/token`, { method: "OPTIONS" });
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
    });
  });

  describe("registration", () => {
    test.each([
      ["a loopback http URI", "http://127.0.0.1:33418/callback"],
      ["an IPv6 loopback URI", "http://[::1]:9000/cb"],
      ["localhost", "http://localhost/cb"],
      ["an https URI", "https://app.example.com/oauth/callback?x=1"],
    ])("registers a public client with %s", async (_, uri) => {
      const { status, body } = await register(t.base, { redirect_uris: [uri], client_name: "Claude" });
      expect(status).toBe(201);
      expect(body).toMatchObject({
        redirect_uris: [uri],
        client_name: "Claude",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      });
      expect(body.client_id).toBeString();
      expect(body.client_id_issued_at).toBeNumber();
      expect(body.client_secret).toBeUndefined();
    });

    test.each([
      ["http on a public host", ["http://app.example.com/cb"]],
      ["a fragment", ["https://app.example.com/cb#frag"]],
      ["javascript:", ["javascript:alert(1)"]],
      ["data:", ["data:text/html,hi"]],
      ["file:", ["file:///etc/passwd"]],
      ["a relative URI", ["/callback"]],
      ["no URIs", []],
    ])("refuses a redirect URI with %s as invalid_redirect_uri", async (_, uris) => {
      const { status, body } = await register(t.base, { redirect_uris: uris });
      expect(status).toBe(400);
      expect(body.error).toBe("invalid_redirect_uri");
      expect(body.error_description).toBeString();
    });

    test("accepts a native app's private-use scheme (RFC 8252 §7.1)", async () => {
      const { status, body } = await register(t.base, { redirect_uris: ["cursor://anysphere.cursor-mcp/oauth/callback"] });
      expect(status).toBe(201);
      expect(body.redirect_uris).toEqual(["cursor://anysphere.cursor-mcp/oauth/callback"]);
    });

    test("refuses malformed JSON and unsupported metadata as invalid_client_metadata", async () => {
      const malformed = await fetch(`${t.base}/register`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
      await expectOAuthError(malformed, 400, "invalid_client_metadata");
      for (const extra of [{ token_endpoint_auth_method: "private_key_jwt" }, { grant_types: ["client_credentials"] }, { response_types: ["token"] }]) {
        const { status, body } = await register(t.base, { redirect_uris: [REDIRECT], ...extra });
        expect(status).toBe(400);
        expect(body.error).toBe("invalid_client_metadata");
      }
    });
  });

  describe("authorization page", () => {
    test("renders a no-script sign-in form carrying the request, with everything escaped", async () => {
      const client = await registerPublic(t.base, `Evil "<script>alert(1)</script>" & Co`);
      const { challenge } = pkce();
      const response = await fetch(authorizeUrl(t.base, { ...standardParams(t.base, client.client_id, challenge), state: `"><b>x` }));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const html = await response.text();
      expect(html).not.toContain("<script");
      expect(html).not.toContain("<b>x");
      expect(html).toMatch(/<input id="api_key" type="password" name="api_key"/);
      expect(html).toContain("Allow Evil &#34;&#60;script&#62;alert(1)&#60;/script&#62;&#34; &#38; Co</button>");
      expect(html).toContain("127.0.0.1:8765");
      const form = parseForm(html);
      expect(form.action).toBe(`${t.base}/authorize`);
      expect(form.fields).toMatchObject({
        client_id: client.client_id, redirect_uri: REDIRECT, state: `"><b>x`, code_challenge: challenge,
        code_challenge_method: "S256", resource: `${t.base}/mcp`, scope: "jobs:search", response_type: "code",
      });
      expect(form.fields.csrf_token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    });

    test("every HTML page is unframeable, script-free by CSP, not cached, not sniffed and sends no Referer", async () => {
      const client = await registerPublic(t.base);
      const url = authorizeUrl(t.base, standardParams(t.base, client.client_id, pkce().challenge));
      const form = parseForm(await (await fetch(url)).text());
      const pages = [
        await fetch(url), // the sign-in and consent form
        await fetch(authorizeUrl(t.base, { client_id: "nobody" })), // 400 error page
        await postForm(form.action, { ...form.fields, api_key: apiKey }, { origin: "https://evil.example" }), // 403 page
      ];
      expect(pages.map((page) => page.status)).toEqual([200, 400, 403]);
      for (const page of pages) {
        expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(page.headers.get("x-frame-options")).toBe("DENY");
        expect(page.headers.get("x-content-type-options")).toBe("nosniff");
        expect(page.headers.get("referrer-policy")).toBe("no-referrer");
        expect(page.headers.get("cache-control")).toBe("no-store");
        const csp = Object.fromEntries(
          page.headers.get("content-security-policy")!.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
        );
        expect(csp["default-src"]).toEqual(["'none'"]);
        expect(csp["script-src"]).toBeUndefined(); // so scripts fall back to default-src 'none'
        expect(csp["frame-ancestors"]).toEqual(["'none'"]);
        expect(csp["base-uri"]).toEqual(["'none'"]);
      }
    });

    test("re-shows the form with an error for a wrong or revoked API key", async () => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const url = authorizeUrl(t.base, standardParams(t.base, client.client_id, challenge));
      const revoked = await t.keys.create("gone");
      await t.keys.revoke(revoked.id);
      for (const key of [`${apiKey.slice(0, -1)}x`, revoked.key, "not a key"]) {
        const response = await signIn(url, key);
        expect(response.status).toBe(200);
        expect(response.headers.get("location")).toBeNull();
        const html = await response.text();
        expect(html).toContain("That API key is not valid or has been revoked.");
        expect(parseForm(html).fields.client_id).toBe(client.client_id);
      }
    });

    test("redirects with code, state and iss after a correct API key", async () => {
      const client = await registerPublic(t.base);
      const { code, location } = await codeFor(t, client.client_id, apiKey);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(location.searchParams.get("state")).toBe("st-123");
      expect(location.searchParams.get("iss")).toBe(t.base);
    });

    test("sends access_denied back when the person declines", async () => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const response = await signIn(authorizeUrl(t.base, standardParams(t.base, client.client_id, challenge)), "", { decision: "deny" });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location")!);
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(location.searchParams.get("state")).toBe("st-123");
    });

    test.each([
      ["no code_challenge", { code_challenge: undefined }, "code_challenge is required (PKCE)"],
      ["the plain method", { code_challenge_method: "plain" }, "code_challenge_method must be S256"],
      ["no method", { code_challenge_method: undefined }, "code_challenge_method must be S256"],
      ["response_type token", { response_type: "token" }, "response_type must be code"],
      ["another resource", { resource: "https://elsewhere.example/mcp" }, "resource must be"],
    ])("answers %s with a 400 page naming the problem, not a redirect to the (self-registered) redirect_uri", async (_, override, message) => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const response = await fetch(authorizeUrl(t.base, { ...standardParams(t.base, client.client_id, challenge), ...override }), { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain(message);
    });

    test.each([
      ["an unregistered redirect_uri", { redirect_uri: "https://attacker.example/cb" }],
      ["another path on the loopback host", { redirect_uri: "http://127.0.0.1:8765/other" }],
      ["an unknown client", { client_id: "nobody" }],
      ["no client_id", { client_id: undefined }],
    ])("answers %s with a 400 page, never a redirect", async (_, override) => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const response = await fetch(authorizeUrl(t.base, { ...standardParams(t.base, client.client_id, challenge), ...override }), { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-type")).toContain("text/html");
    });

    test("accepts a loopback redirect_uri on another port (RFC 8252 §7.3) and redirects there", async () => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const otherPort = "http://127.0.0.1:40123/callback";
      const response = await signIn(authorizeUrl(t.base, { ...standardParams(t.base, client.client_id, challenge), redirect_uri: otherPort }), apiKey);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")!.startsWith(`${otherPort}?code=`)).toBe(true);
    });

    test("refuses a form posted from another site, or with a changed field", async () => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const page = await fetch(authorizeUrl(t.base, standardParams(t.base, client.client_id, challenge)));
      const form = parseForm(await page.text());
      const crossSite = await postForm(form.action, { ...form.fields, api_key: apiKey }, { origin: "https://evil.example" });
      expect(crossSite.status).toBe(403);
      const fetchMetadata = await postForm(form.action, { ...form.fields, api_key: apiKey }, { "sec-fetch-site": "cross-site" });
      expect(fetchMetadata.status).toBe(403);
      const tampered = await postForm(form.action, { ...form.fields, state: "other", api_key: apiKey });
      expect(tampered.status).toBe(400);
      expect(tampered.headers.get("location")).toBeNull();
      const noToken = await postForm(form.action, { ...form.fields, csrf_token: "", api_key: apiKey });
      expect(noToken.status).toBe(400);
      const sameOrigin = await postForm(form.action, { ...form.fields, api_key: apiKey }, { origin: t.base, "sec-fetch-site": "same-origin" });
      expect(sameOrigin.status).toBe(302);
    });
  });

  describe("token endpoint", () => {
    test("exchanges a code for a Bearer token that verifyBearer accepts", async () => {
      const client = await registerPublic(t.base);
      const { code, verifier } = await codeFor(t, client.client_id, apiKey);
      const response = await exchange(t, client.client_id, code, verifier);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "jobs:search" });
      expect(body.refresh_token).toBeString();
      const principal = await t.oauth.verifyBearer(body.access_token as string, t.base);
      expect(principal).toEqual({ id: `key:${keyId}`, keyId, name: "alice", rateLimit: null, via: "oauth", clientId: client.client_id });
      const claims = JSON.parse(Buffer.from((body.access_token as string).split(".")[1]!, "base64url").toString());
      expect(claims).toMatchObject({ iss: t.base, aud: `${t.base}/mcp`, sub: keyId, client_id: client.client_id, scope: "jobs:search" });
      expect(claims.exp - claims.iat).toBe(3600);
      expect(claims.jti).toBeString();
    });

    test("a form body over 64 KiB is refused as invalid_request, declared or streamed", async () => {
      const body = `grant_type=authorization_code&code=${"x".repeat(64 * 1024)}`;
      await expectOAuthError(await token(t.base, { grant_type: "authorization_code", code: "x".repeat(64 * 1024) }), 400, "invalid_request");
      const streamed = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(body));
          controller.close();
        },
      });
      const response = await fetch(`${t.base}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: streamed,
        duplex: "half",
      } as RequestInit);
      await expectOAuthError(response, 400, "invalid_request");
    });

    test("accepts a JSON token request too", async () => {
      const client = await registerPublic(t.base);
      const { code, verifier } = await codeFor(t, client.client_id, apiKey);
      const response = await fetch(`${t.base}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id }),
      });
      expect(response.status).toBe(200);
    });

    test("a code works once; its reuse fails and revokes the tokens it gave", async () => {
      const client = await registerPublic(t.base);
      const { code, verifier } = await codeFor(t, client.client_id, apiKey);
      const first = (await (await exchange(t, client.client_id, code, verifier)).json()) as Required<OAuthTokens>;
      await t.oauth.verifyBearer(first.access_token, t.base);
      await expectOAuthError(await exchange(t, client.client_id, code, verifier), 400, "invalid_grant");
      await expectRejected(t.oauth.verifyBearer(first.access_token, t.base), /revoked/);
      await expectOAuthError(await token(t.base, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: client.client_id }), 400, "invalid_grant");
    });

    test("a wrong code_verifier, redirect_uri, client or resource fails", async () => {
      const client = await registerPublic(t.base);
      const other = await registerPublic(t.base);
      const { code, verifier } = await codeFor(t, client.client_id, apiKey);
      const base = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id };
      await expectOAuthError(await token(t.base, { ...base, code_verifier: pkce().verifier }), 400, "invalid_grant");
      const { code_verifier: _, ...withoutVerifier } = base;
      await expectOAuthError(await token(t.base, withoutVerifier), 400, "invalid_request");
      await expectOAuthError(await token(t.base, { ...base, redirect_uri: "http://127.0.0.1:9/callback" }), 400, "invalid_grant");
      await expectOAuthError(await token(t.base, { ...base, client_id: other.client_id }), 400, "invalid_grant");
      await expectOAuthError(await token(t.base, { ...base, client_id: "nobody" }), 401, "invalid_client");
      await expectOAuthError(await token(t.base, { ...base, resource: "https://elsewhere.example/mcp" }), 400, "invalid_target");
      await expectOAuthError(await token(t.base, { ...base, code: "made-up" }), 400, "invalid_grant");
      // None of the failures used the code up.
      expect((await token(t.base, base)).status).toBe(200);
    });

    test("a code is good for 60 s only", async () => {
      const client = await registerPublic(t.base);
      const at = (offsetMs: number) => createOAuthServer({ config: t.config, keys: t.keys, now: () => Date.now() + offsetMs });
      const redeem = async (offsetMs: number) => {
        const { code, verifier } = await codeFor(t, client.client_id, apiKey);
        const server = await at(offsetMs);
        const params = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id };
        try {
          return await server.authorizationServer!.token(params, null, t.base).then(() => "ok", (error: Error) => error.message);
        } finally {
          server.close();
        }
      };
      expect(await redeem(55_000)).toBe("ok");
      expect(await redeem(61_000)).toBe("authorization code expired");
    });

    test("refuses an unknown grant type and a missing one", async () => {
      await expectOAuthError(await token(t.base, { grant_type: "client_credentials" }), 400, "unsupported_grant_type");
      await expectOAuthError(await token(t.base, {}), 400, "invalid_request");
    });

    test("rotates refresh tokens; reusing a rotated one revokes the whole family", async () => {
      const client = await registerPublic(t.base);
      const first = await tokensFor(t, client.client_id, apiKey);
      const refresh = (refreshToken: string) =>
        token(t.base, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.client_id, resource: `${t.base}/mcp` });
      const secondResponse = await refresh(first.refresh_token);
      expect(secondResponse.status).toBe(200);
      expect(secondResponse.headers.get("cache-control")).toBe("no-store");
      const second = (await secondResponse.json()) as Required<OAuthTokens>;
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      await t.oauth.verifyBearer(second.access_token, t.base);

      await expectOAuthError(await refresh(first.refresh_token), 400, "invalid_grant");
      await expectOAuthError(await refresh(second.refresh_token), 400, "invalid_grant");
      await expectRejected(t.oauth.verifyBearer(second.access_token, t.base), /revoked/);
    });

    test("a refresh token is refused to another client", async () => {
      const client = await registerPublic(t.base);
      const other = await registerPublic(t.base);
      const tokens = await tokensFor(t, client.client_id, apiKey);
      await expectOAuthError(await token(t.base, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: other.client_id }), 400, "invalid_grant");
    });

    test("a public client's code (or refresh token) is not redeemed without its client_id", async () => {
      const client = await registerPublic(t.base);
      const { code, verifier } = await codeFor(t, client.client_id, apiKey);
      const params = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT };
      await expectOAuthError(await token(t.base, params), 400, "invalid_request");
      const tokens = (await (await token(t.base, { ...params, client_id: client.client_id })).json()) as { refresh_token: string };
      await expectOAuthError(await token(t.base, { grant_type: "refresh_token", refresh_token: tokens.refresh_token }), 400, "invalid_request");
    });

    test("confidential clients must authenticate with their secret (post or basic)", async () => {
      const { body: client } = await register(t.base, { redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_post" });
      expect(client.client_secret).toBeString();
      expect(client.token_endpoint_auth_method).toBe("client_secret_post");
      const { code, verifier } = await codeFor(t, client.client_id, apiKey);
      const params = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT };
      await expectOAuthError(await token(t.base, { ...params, client_id: client.client_id }), 401, "invalid_client");
      await expectOAuthError(await token(t.base, params), 401, "invalid_client");
      await expectOAuthError(await token(t.base, { ...params, client_id: client.client_id, client_secret: "wrong" }), 401, "invalid_client");
      const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`;
      const response = await token(t.base, params, { authorization: basic });
      expect(response.status).toBe(200);
    });
  });

  describe("revocation", () => {
    test("revoking a refresh token ends its family; unknown tokens get 200", async () => {
      const client = await registerPublic(t.base);
      const tokens = await tokensFor(t, client.client_id, apiKey);
      const revoke = (value: string) => postForm(`${t.base}/revoke`, { token: value, client_id: client.client_id });
      expect((await revoke(tokens.refresh_token)).status).toBe(200);
      await expectOAuthError(await token(t.base, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id }), 400, "invalid_grant");
      await expectRejected(t.oauth.verifyBearer(tokens.access_token, t.base), /revoked/);
      expect((await revoke("never-issued")).status).toBe(200);
    });

    test("revoking an access token ends its family too", async () => {
      const client = await registerPublic(t.base);
      const tokens = await tokensFor(t, client.client_id, apiKey);
      expect((await postForm(`${t.base}/revoke`, { token: tokens.access_token, token_type_hint: "access_token" })).status).toBe(200);
      await expectRejected(t.oauth.verifyBearer(tokens.access_token, t.base));
    });
  });

  describe("verifyBearer", () => {
    let tokens: Required<OAuthTokens>;
    beforeAll(async () => {
      const client = await registerPublic(t.base);
      tokens = await tokensFor(t, client.client_id, apiKey);
    });

    test("rejects a tampered token", async () => {
      const [header, payload, signature] = tokens.access_token.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: "0123456789abcdef" })).toString("base64url");
      await expectRejected(t.oauth.verifyBearer(`${header}.${forged}.${signature}`, t.base), /signature/);
      await expectRejected(t.oauth.verifyBearer(`${header}.${payload}.${signature.slice(0, -4)}AAAA`, t.base));
      await expectRejected(t.oauth.verifyBearer("not-a-jwt", t.base));
    });

    test("rejects an expired token", async () => {
      const later = await createOAuthServer({ config: t.config, keys: t.keys, now: () => Date.now() + 2 * 3600_000 });
      await expectRejected(later.verifyBearer(tokens.access_token, t.base), /expired/);
      later.close();
    });

    test("rejects a token for another audience or from another issuer", async () => {
      const jwk = (JSON.parse(readFileSync(join(t.dataDir, "oauth-signing-key.json"), "utf8")) as { keys: JWK[] }).keys[0]!;
      const key = (await importJWK(jwk, "ES256")) as CryptoKey;
      const claims = JSON.parse(Buffer.from(tokens.access_token.split(".")[1]!, "base64url").toString());
      const sign = (aud: string) =>
        new SignJWT({ ...claims, aud }).setProtectedHeader({ alg: "ES256", kid: jwk.kid, typ: "at+jwt" }).sign(key);
      await t.oauth.verifyBearer(await sign(`${t.base}/mcp`), t.base);
      await expectRejected(t.oauth.verifyBearer(await sign("https://elsewhere.example/mcp"), t.base), /audience/);
      await expectRejected(t.oauth.verifyBearer(tokens.access_token, "http://localhost:1"), /issuer/);
    });

    test("rejects tokens, and refreshes, of a revoked API key", async () => {
      const bob = await t.keys.create("bob");
      const client = await registerPublic(t.base);
      const bobTokens = await tokensFor(t, client.client_id, bob.key);
      expect((await t.oauth.verifyBearer(bobTokens.access_token, t.base)).keyId).toBe(bob.id);
      await t.keys.revoke(bob.id);
      await expectRejected(t.oauth.verifyBearer(bobTokens.access_token, t.base), /API key/);
      await expectOAuthError(await token(t.base, { grant_type: "refresh_token", refresh_token: bobTokens.refresh_token, client_id: client.client_id }), 400, "invalid_grant");
    });

    test("tokens stay valid after a restart on the same DATA_DIR; the key file is private", async () => {
      expect(statSync(join(t.dataDir, "oauth-signing-key.json")).mode & 0o777).toBe(0o600);
      const restarted = await createOAuthServer({ config: t.config, keys: t.keys });
      expect((await restarted.verifyBearer(tokens.access_token, t.base)).keyId).toBe(keyId);
      restarted.close();
    });
  });
});

describe("sign-in brute-force protection", () => {
  /** GET the form, then POST it with `apiKey` from the address X-Forwarded-For names. */
  async function signInFrom(t: Harness, clientId: string, apiKey: string, forwardedFor: string) {
    const page = await fetch(authorizeUrl(t.base, standardParams(t.base, clientId, pkce().challenge)));
    const form = parseForm(await page.text());
    return postForm(form.action, { ...form.fields, api_key: apiKey }, { "x-forwarded-for": forwardedFor });
  }
  const wrongSecret = (key: string) => `${key.slice(0, -3)}${key.endsWith("AAA") ? "BBB" : "AAA"}`;

  async function expectLockedOut(response: Response) {
    expect(response.status).toBe(429);
    expect(response.headers.get("location")).toBeNull();
    const retryAfter = Number(response.headers.get("retry-after"));
    // The 10th failure in a burst frees the next attempt 90 s later (15 min / 10), plus up to 1 s jitter.
    expect(retryAfter).toBeGreaterThanOrEqual(90);
    expect(retryAfter).toBeLessThanOrEqual(91);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    const html = await response.text();
    expect(html).toContain("Too many wrong API keys");
    expect(html).toContain("Try again in 2 minutes.");
    expect(html).not.toContain("<form");
  }

  test("behind a proxy (TRUST_PROXY=1), 10 wrong keys lock the client address out, correct keys included; other addresses go on", async () => {
    const t = await startHarness({ TRUST_PROXY: "1" });
    try {
      const alice = await t.keys.create("alice");
      const client = await registerPublic(t.base);
      for (let i = 0; i < 10; i++) {
        // What the client wrote on the left is ignored; the proxy appended the real address.
        const response = await signInFrom(t, client.client_id, `guess-${i}`, `10.9.9.${i}, 203.0.113.7`);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain("That API key is not valid");
      }
      await expectLockedOut(await signInFrom(t, client.client_id, alice.key, "10.0.0.1, 203.0.113.7"));
      expect((await signInFrom(t, client.client_id, alice.key, "203.0.113.8")).status).toBe(302);
    } finally {
      await t.stop();
    }
  });

  test("10 wrong secrets for one key id, from any addresses, lock that key's sign-in; other keys go on", async () => {
    const t = await startHarness({ TRUST_PROXY: "1" });
    try {
      const alice = await t.keys.create("alice");
      const bob = await t.keys.create("bob");
      const client = await registerPublic(t.base);
      for (let i = 0; i < 10; i++) {
        expect((await signInFrom(t, client.client_id, wrongSecret(alice.key), `198.51.100.${i}`)).status).toBe(200);
      }
      await expectLockedOut(await signInFrom(t, client.client_id, alice.key, "198.51.100.200"));
      expect((await signInFrom(t, client.client_id, bob.key, "198.51.100.200")).status).toBe(302);
    } finally {
      await t.stop();
    }
  });

  test("without TRUST_PROXY the socket address counts and X-Forwarded-For cannot spread the attempts", async () => {
    const t = await startHarness();
    try {
      const alice = await t.keys.create("alice");
      const client = await registerPublic(t.base);
      for (let i = 0; i < 10; i++) {
        expect((await signInFrom(t, client.client_id, `guess-${i}`, `192.0.2.${i}`)).status).toBe(200);
      }
      await expectLockedOut(await signInFrom(t, client.client_id, alice.key, "192.0.2.99"));
    } finally {
      await t.stop();
    }
  });

  test("successful sign-ins and empty submissions are not counted", async () => {
    const t = await startHarness();
    try {
      const alice = await t.keys.create("alice");
      const client = await registerPublic(t.base);
      for (let i = 0; i < 12; i++) expect((await signInFrom(t, client.client_id, alice.key, "x")).status).toBe(302);
      for (let i = 0; i < 12; i++) expect((await signInFrom(t, client.client_id, "", "x")).status).toBe(200);
      expect((await signInFrom(t, client.client_id, alice.key, "x")).status).toBe(302);
    } finally {
      await t.stop();
    }
  });
});

describe("the MCP SDK's own client", () => {
  let t: Harness;
  let apiKey: string;
  beforeAll(async () => {
    t = await startHarness();
    apiKey = (await t.keys.create("sdk")).key;
  });
  afterAll(() => t.stop());

  test("auth() discovers, registers, signs in with PKCE and resource, and refreshes", async () => {
    const { provider, saved } = memoryProvider(REDIRECT, "SDK test", "sdk-state");
    const serverUrl = `${t.base}/mcp`;
    expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
    expect(saved.url!.searchParams.get("resource")).toBe(`${t.base}/mcp`);
    expect(saved.url!.searchParams.get("scope")).toBe("jobs:search");

    const response = await signIn(saved.url!.href, apiKey);
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("state")).toBe("sdk-state");
    const code = location.searchParams.get("code")!;
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe("AUTHORIZED");
    const first = saved.tokens!;
    expect((await t.oauth.verifyBearer(first.access_token, t.base)).name).toBe("sdk");

    expect(await auth(provider, { serverUrl })).toBe("AUTHORIZED");
    expect(saved.tokens!.refresh_token).not.toBe(first.refresh_token);
    await t.oauth.verifyBearer(saved.tokens!.access_token, t.base);
  });
});

describe("external issuer (OAUTH_ISSUER)", () => {
  let issuer: ReturnType<typeof Bun.serve>;
  let issuerUrl: string;
  let signingKey: CryptoKey;
  let strangerKey: CryptoKey;
  let t: Harness;

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256");
    signingKey = pair.privateKey;
    strangerKey = (await generateKeyPair("RS256")).privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    // Serves only OpenID discovery, so the verifier's fallback from RFC 8414 metadata is exercised.
    issuer = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request) {
        const { pathname } = new URL(request.url);
        if (pathname === "/.well-known/openid-configuration") {
          return Response.json({ issuer: issuerUrl, jwks_uri: `${issuerUrl}/jwks`, authorization_endpoint: `${issuerUrl}/auth` });
        }
        if (pathname === "/jwks") return Response.json({ keys: [publicJwk] });
        return new Response("not found", { status: 404 });
      },
    });
    issuerUrl = `http://127.0.0.1:${issuer.port}`;
    t = await startHarness({ OAUTH_ISSUER: issuerUrl });
  });
  afterAll(async () => {
    await t.stop();
    issuer.stop(true);
  });

  const mint = (claims: Record<string, unknown>, key: CryptoKey = signingKey, exp = "5m") =>
    new SignJWT({ azp: "external-client", ...claims })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer((claims.iss as string) ?? issuerUrl)
      .setAudience((claims.aud as string) ?? `${t.base}/mcp`)
      .setSubject("user-42")
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(key);

  test("resource metadata points at the external issuer; the built-in endpoints are not served", async () => {
    const body = (await (await fetch(`${t.base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(body.resource).toBe(`${t.base}/mcp`);
    expect(body.authorization_servers).toEqual([issuerUrl]);
    for (const [method, path] of [["GET", "/.well-known/oauth-authorization-server"], ["GET", "/authorize"], ["POST", "/token"], ["POST", "/register"], ["POST", "/revoke"]] as const) {
      expect((await fetch(`${t.base}${path}`, { method })).status).toBe(404);
    }
  });

  test("verifyBearer accepts the issuer's tokens for this resource", async () => {
    const principal = await t.oauth.verifyBearer(await mint({}), t.base);
    expect(principal).toEqual({ id: `oauth:${issuerUrl}#user-42`, name: "user-42", rateLimit: null, via: "oauth", clientId: "external-client" });
  });

  test("verifyBearer rejects other keys, issuers, audiences and expired tokens", async () => {
    await expectRejected(t.oauth.verifyBearer(await mint({}, strangerKey), t.base), /signature/);
    await expectRejected(t.oauth.verifyBearer(await mint({ iss: "https://other-issuer.example" }), t.base), /issuer/);
    await expectRejected(t.oauth.verifyBearer(await mint({ aud: "https://elsewhere.example/mcp" }), t.base), /audience/);
    await expectRejected(t.oauth.verifyBearer(await mint({}, signingKey, "-1m"), t.base), /expired/);
    await expectRejected(t.oauth.verifyBearer("garbage", t.base));
  });

  test("OAUTH_AUDIENCE and OAUTH_JWKS_URL override the defaults", async () => {
    const config = testConfig(t.dataDir, { OAUTH_ISSUER: issuerUrl, OAUTH_AUDIENCE: "jobs-api", OAUTH_JWKS_URL: `${issuerUrl}/jwks` });
    const oauth = await createOAuthServer({ config, keys: t.keys });
    expect((await oauth.verifyBearer(await mint({ aud: "jobs-api" }), t.base)).name).toBe("user-42");
    await expectRejected(oauth.verifyBearer(await mint({}), t.base), /audience/);
    oauth.close();
  });

  test("an unreachable issuer makes tokens invalid rather than crashing", async () => {
    const config = testConfig(t.dataDir, { OAUTH_ISSUER: "http://127.0.0.1:9" });
    const oauth = await createOAuthServer({ config, keys: t.keys });
    await expectRejected(oauth.verifyBearer(await mint({ iss: "http://127.0.0.1:9" }), t.base), /cannot reach/);
    oauth.close();
  });
});
