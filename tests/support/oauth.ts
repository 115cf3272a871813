/**
 * The built-in OAuth server's routes alone on a real port (the harness) and the steps of its flows:
 * registering a client, the authorize URL with PKCE, signing in for a code, exchanging it for tokens.
 */
import { expect } from "bun:test";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { Elysia } from "elysia";
import { createHash, randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { openKeyStore, type KeyStore } from "../../server/auth/api-keys.ts";
import { createOAuthServer, type OAuthServer } from "../../server/auth/oauth/server.ts";
import { createMemoryRateLimiter } from "../../server/auth/rate-limit.ts";
import type { Config } from "../../server/config.ts";
import { oauthRoutes } from "../../server/routes/oauth.ts";
import { tempDir, testConfig } from "./helpers.ts";
import { signIn } from "./sign-in.ts";

export interface Harness {
  base: string;
  dataDir: string;
  config: Config;
  keys: KeyStore;
  oauth: OAuthServer;
  stop(): Promise<void>;
}

/** The plugin alone on a real port, over a real key store and OAuth state in a temp dir. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
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

export const REDIRECT = "http://127.0.0.1:8765/callback";

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export async function register(base: string, body: object) {
  const response = await fetch(`${base}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

export async function registerPublic(base: string, name = "Test Client") {
  const { status, body } = await register(base, { redirect_uris: [REDIRECT], client_name: name, token_endpoint_auth_method: "none" });
  expect(status).toBe(201);
  return body as { client_id: string; client_name: string };
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${base}/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

export function standardParams(base: string, clientId: string, challenge: string): Record<string, string> {
  return {
    response_type: "code", client_id: clientId, redirect_uri: REDIRECT, state: "st-123",
    code_challenge: challenge, code_challenge_method: "S256", resource: `${base}/mcp`, scope: "jobs:search",
  };
}

export async function codeFor(t: Harness, clientId: string, apiKey: string) {
  const { verifier, challenge } = pkce();
  const response = await signIn(authorizeUrl(t.base, standardParams(t.base, clientId, challenge)), apiKey);
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location")!);
  return { code: location.searchParams.get("code")!, verifier, location };
}

export function token(base: string, params: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${base}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(params),
  });
}

export async function exchange(t: Harness, clientId: string, code: string, verifier: string) {
  return token(t.base, {
    grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, resource: `${t.base}/mcp`,
  });
}

export async function tokensFor(t: Harness, clientId: string, apiKey: string): Promise<Required<OAuthTokens>> {
  const { code, verifier } = await codeFor(t, clientId, apiKey);
  const response = await exchange(t, clientId, code, verifier);
  expect(response.status).toBe(200);
  return (await response.json()) as Required<OAuthTokens>;
}

export async function expectOAuthError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string; error_description?: string };
  expect(body.error).toBe(error);
  expect(body.error_description).toBeString();
}

export async function expectRejected(promise: Promise<unknown>, description?: RegExp) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidTokenError);
  if (description) expect((error as Error).message).toMatch(description);
}

/** A harness with a key named alice, as most tests of the flows need. */
export async function startHarnessWithKey(env: Record<string, string> = {}): Promise<{ t: Harness; apiKey: string; keyId: string }> {
  const t = await startHarness(env);
  const created = await t.keys.create("alice");
  return { t, apiKey: created.key, keyId: created.id };
}
