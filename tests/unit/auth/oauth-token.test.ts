import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { createOAuthServer } from "../../../server/auth/oauth/server.ts";
import {
  codeFor, exchange, expectOAuthError, expectRejected, pkce, REDIRECT, register, registerPublic, startHarnessWithKey, token, tokensFor,
  type Harness,
} from "../../support/oauth.ts";
import { postForm } from "../../support/sign-in.ts";

/** The built-in authorization server's /token (codes, PKCE, refresh rotation, client authentication) and /revoke. */
describe("built-in authorization server", () => {
  let t: Harness;
  let apiKey: string;
  let keyId: string;
  beforeAll(async () => ({ t, apiKey, keyId } = await startHarnessWithKey()));
  afterAll(() => t.stop());

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
});
