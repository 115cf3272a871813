import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from "@modelcontextprotocol/sdk/shared/auth.js";
import { expectOAuthError, REDIRECT, register, startHarness, type Harness } from "../../support/oauth.ts";

/** The built-in authorization server's metadata (RFC 8414, RFC 9728) and dynamic client registration. */
describe("built-in authorization server", () => {
  let t: Harness;
  beforeAll(async () => {
    t = await startHarness();
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
});
