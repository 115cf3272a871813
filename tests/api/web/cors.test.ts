import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { clientIp } from "../../../server/http/client-ip.ts";
import { loadConfig } from "../../../server/config.ts";
import { corsHeaders, foreignOrigin, preflightResponse } from "../../../server/http/cors.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

const LISTED = "https://app.example";
const EVIL = "https://evil.example";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings().slice(0, 6), env: { ALLOWED_ORIGINS: `${LISTED}, http://localhost:6274` } });
});
afterAll(() => t.stop());

function mcp(headers: Record<string, string>, method = "POST") {
  return fetch(`${t.url}/mcp`, {
    method,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    ...(method === "POST" ? { body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) } : {}),
  });
}

function preflight(path: string, origin: string, requestHeaders = "authorization, content-type, mcp-protocol-version") {
  return fetch(`${t.url}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": requestHeaders },
  });
}

const listOf = (header: string | null) => (header ?? "").split(",").map((part) => part.trim().toLowerCase());

describe("/mcp and browser origins", () => {
  test("a foreign Origin gets 403 JSON-RPC before authentication, whatever the credentials", async () => {
    const attempts: Record<string, string>[] = [{ origin: EVIL, "x-api-key": t.apiKey }, { origin: EVIL }, { origin: "null" }];
    for (const headers of attempts) {
      const response = await mcp(headers);
      expect(response.status).toBe(403);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
      expect(body).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Forbidden: requests from this Origin are not allowed" }, id: null });
    }
    expect((await mcp({ origin: EVIL, "x-api-key": t.apiKey }, "GET")).status).toBe(403);
  });

  test("no Origin (not a browser) and the service's own origin pass", async () => {
    const plain = await mcp({ "x-api-key": t.apiKey });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
    expect((await mcp({ origin: t.url, "x-api-key": t.apiKey })).status).toBe(200);
  });

  test("a listed origin is served and may read the answer and its headers", async () => {
    const response = await mcp({ origin: LISTED, "x-api-key": t.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(listOf(response.headers.get("vary"))).toContain("origin");
    expect(listOf(response.headers.get("access-control-expose-headers"))).toEqual(
      expect.arrayContaining(["www-authenticate", "mcp-session-id", "retry-after"]),
    );
  });

  test("the 401 that starts OAuth discovery is readable by a listed browser client, WWW-Authenticate included", async () => {
    const response = await mcp({ origin: "http://localhost:6274" });
    expect(response.status).toBe(401);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    expect(listOf(response.headers.get("access-control-expose-headers"))).toContain("www-authenticate");
    expect(response.headers.get("www-authenticate")).toContain("resource_metadata=");
  });

  test("answers the preflight of a listed origin with the MCP headers, and refuses a foreign one", async () => {
    const response = await preflight("/mcp", LISTED, "authorization, content-type, mcp-protocol-version, x-api-key");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(listOf(response.headers.get("access-control-allow-methods"))).toEqual(expect.arrayContaining(["post", "get", "delete"]));
    expect(listOf(response.headers.get("access-control-allow-headers"))).toEqual(
      expect.arrayContaining(["authorization", "content-type", "mcp-protocol-version", "x-api-key", "mcp-session-id"]),
    );
    const refused = await preflight("/mcp", EVIL);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("REST /v1 and browser origins", () => {
  const search = (headers: Record<string, string>) =>
    fetch(`${t.url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: '{"q":"nurse"}' });

  test("a listed origin gets the CORS grant on answers and on errors", async () => {
    const ok = await search({ origin: LISTED, "x-api-key": t.apiKey });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(LISTED);
    const denied = await search({ origin: LISTED, "x-api-key": "wrong" });
    expect(denied.status).toBe(403);
    expect(denied.headers.get("access-control-allow-origin")).toBe(LISTED);
    const cities = await fetch(`${t.url}/v1/cities`, { headers: { origin: LISTED, "x-api-key": t.apiKey } });
    expect(cities.headers.get("access-control-allow-origin")).toBe(LISTED);
  });

  test("a foreign origin gets no grant (its page cannot read the answer) but is not refused", async () => {
    const response = await search({ origin: EVIL, "x-api-key": t.apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(listOf(response.headers.get("vary"))).toContain("origin");
  });

  test("preflights: x-api-key allowed for a listed origin, 403 for a foreign one", async () => {
    const response = await preflight("/v1/search", LISTED, "content-type, x-api-key");
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(listOf(response.headers.get("access-control-allow-headers"))).toEqual(expect.arrayContaining(["x-api-key", "content-type"]));
    expect((await preflight("/v1/search", EVIL, "x-api-key")).status).toBe(403);
  });
});

describe("OAuth endpoints and browser origins", () => {
  test("metadata, /register and /token are open to any origin, and a 401's WWW-Authenticate is readable", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"]) {
      const response = await fetch(`${t.url}${path}`, { headers: { origin: EVIL, "mcp-protocol-version": "2025-06-18" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
    }
    const token = await fetch(`${t.url}/token`, {
      method: "POST",
      headers: { origin: LISTED, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&code=x&client_id=nobody",
    });
    expect(token.status).toBe(401);
    expect(token.headers.get("access-control-allow-origin")).toBe("*");
    expect(listOf(token.headers.get("access-control-expose-headers"))).toContain("www-authenticate");
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/register", "/token", "/revoke"]) {
      const response = await preflight(path, LISTED);
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(listOf(response.headers.get("access-control-allow-headers"))).toEqual(
        expect.arrayContaining(["authorization", "content-type", "mcp-protocol-version"]),
      );
    }
  });
});

describe("origin policy", () => {
  const request = (origin: string | undefined, url = "http://127.0.0.1:3000/mcp") =>
    new Request(url, origin === undefined ? {} : { headers: { origin } });
  const policy = (env: Record<string, string>) => loadConfig(env);

  test.each([
    ["no Origin", {}, undefined, true],
    ["the origin the request came to", {}, "http://127.0.0.1:3000", true],
    ["same host, other port", {}, "http://127.0.0.1:3001", false],
    ["same host, other scheme", {}, "https://127.0.0.1:3000", false],
    ["an opaque origin", {}, "null", false],
    ["a listed origin", { ALLOWED_ORIGINS: "https://a.example,https://b.example/" }, "https://b.example", true],
    ["a listed origin's subdomain", { ALLOWED_ORIGINS: "https://a.example" }, "https://x.a.example", false],
    ["anything with *", { ALLOWED_ORIGINS: "*" }, "https://whatever.example", true],
    ["PUBLIC_URL's origin", { PUBLIC_URL: "https://jobs.example.com/" }, "https://jobs.example.com", true],
    ["the request's origin when PUBLIC_URL differs", { PUBLIC_URL: "https://jobs.example.com" }, "http://127.0.0.1:3000", false],
  ])("%s → allowed: %p", (_, env, origin, allowed) => {
    const config = policy(env as Record<string, string>);
    expect(foreignOrigin(config, request(origin))).toBe(allowed ? undefined : origin);
    expect(corsHeaders(config, request(origin))["access-control-allow-origin"]).toBe(allowed && origin ? origin : undefined);
    expect(preflightResponse(config, request(origin), "POST").status).toBe(allowed && origin ? 204 : 403);
  });

  test("ALLOWED_ORIGINS must hold origins only", () => {
    expect(() => loadConfig({ ALLOWED_ORIGINS: "https://a.example/path" })).toThrow(/ALLOWED_ORIGINS/);
    expect(() => loadConfig({ ALLOWED_ORIGINS: "a.example" })).toThrow(/ALLOWED_ORIGINS/);
    expect(loadConfig({}).allowedOrigins).toEqual([]);
  });
});

describe("client address", () => {
  const withForwarded = (value?: string) => new Request("http://x/", value === undefined ? {} : { headers: { "x-forwarded-for": value } });
  test.each([
    [0, "1.1.1.1", "10.0.0.9"],
    [0, undefined, "10.0.0.9"],
    [1, "1.1.1.1", "1.1.1.1"],
    [1, "6.6.6.6, 1.1.1.1", "1.1.1.1"],
    [1, undefined, "10.0.0.9"],
    [1, " ", "10.0.0.9"],
    [2, "6.6.6.6, 1.1.1.1, 10.0.0.2", "1.1.1.1"],
    [2, "1.1.1.1", "1.1.1.1"],
  ])("TRUST_PROXY=%d, X-Forwarded-For %p → %s", (trustProxy, forwarded, expected) => {
    expect(clientIp(withForwarded(forwarded), "10.0.0.9", trustProxy)).toBe(expected);
  });

  test("TRUST_PROXY takes a small whole number", () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
  });
});
