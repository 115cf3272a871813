import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from "jose";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createOAuthServer } from "../../../server/auth/oauth/server.ts";
import { testConfig } from "../../support/helpers.ts";
import { expectOAuthError, expectRejected, registerPublic, startHarness, startHarnessWithKey, token, tokensFor, type Harness } from "../../support/oauth.ts";

/** verifyBearer: the built-in server's own tokens, and the tokens of an external issuer (OAUTH_ISSUER). */
describe("built-in authorization server", () => {
  let t: Harness;
  let apiKey: string;
  let keyId: string;
  beforeAll(async () => ({ t, apiKey, keyId } = await startHarnessWithKey()));
  afterAll(() => t.stop());

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
