import { afterAll, beforeAll, expect, test } from "bun:test";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { memoryProvider, signIn } from "../../support/sign-in.ts";

const REDIRECT = "http://127.0.0.1:8976/callback";
let t: TestServer;
let apiKey: string;

beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
  apiKey = (await t.server.keys.create("agent user", 50)).key;
});
afterAll(() => t.stop());

const transportFor = (provider: OAuthClientProvider) => new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { authProvider: provider });

test("an SDK client discovers, registers, signs in with an API key, calls both tools and refreshes", async () => {
  const { provider, saved } = memoryProvider(REDIRECT, "E2E Agent");

  // 1. The first request gets 401; the SDK follows WWW-Authenticate to the metadata, registers and redirects.
  const first = new Client({ name: "e2e", version: "1.0.0" });
  const transport = transportFor(provider);
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(saved.client?.client_id).toBeString();
  expect(saved.url!.origin).toBe(t.url);
  expect(saved.url!.pathname).toBe("/authorize");
  expect(saved.url!.searchParams.get("code_challenge_method")).toBe("S256");
  expect(saved.url!.searchParams.get("resource")).toBe(`${t.url}/mcp`);

  // 2. The person signs in on the no-JavaScript form with their API key.
  const page = await fetch(saved.url!);
  const html = await page.text();
  expect(html).toContain('type="password" name="api_key"');
  expect(html).toContain("E2E Agent");
  const wrong = await signIn(saved.url!.href, "jsk_wrong");
  expect(wrong.status).toBe(200);
  expect(await wrong.text()).toContain('name="api_key"');
  const approved = await signIn(saved.url!.href, apiKey);
  expect(approved.status).toBe(302);
  const callback = new URL(approved.headers.get("location")!);
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  await transport.finishAuth(callback.searchParams.get("code")!);
  expect(saved.tokens?.token_type).toBe("Bearer");

  // 3. With the token: initialize, list and call both tools.
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(transportFor(provider));
  expect((await client.listTools()).tools).toHaveLength(12);
  const search = await client.callTool({ name: "search_jobs", arguments: { query: "iOS developer swift", city: "London", top_k: 2 } });
  expect((search.structuredContent as { total: number }).total).toBe(2);
  const cities = await client.callTool({ name: "list_cities", arguments: {} });
  expect((cities.structuredContent as { cities: string[] }).cities).toContain("Zürich");

  // 4. An access token that no longer works (here: garbled) is refreshed with the rotated refresh token.
  const before = saved.tokens!;
  saved.tokens = { ...before, access_token: `${before.access_token}x` };
  const again = await client.callTool({ name: "list_cities", arguments: {} });
  expect(again.isError).toBeFalsy();
  expect(saved.tokens!.access_token).not.toBe(before.access_token);
  expect(saved.tokens!.refresh_token).not.toBe(before.refresh_token);
  await client.close();
});

test("OAuth usage counts against the signing-in key's rate limit, and revoking the key ends its tokens", async () => {
  const created = await t.server.keys.create("small", 3);
  const { provider, saved } = memoryProvider(REDIRECT, "E2E Agent");
  const transport = transportFor(provider);
  await expect(new Client({ name: "e2e", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  const approved = await signIn(saved.url!.href, created.key);
  await transport.finishAuth(new URL(approved.headers.get("location")!).searchParams.get("code")!);

  const call = (headers: Record<string, string>) =>
    fetch(`${t.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_cities", arguments: {} } }),
    });
  const bearer = { authorization: `Bearer ${saved.tokens!.access_token}` };
  expect((await call(bearer)).status).toBe(200);
  expect((await call({ "x-api-key": created.key })).status).toBe(200);
  expect((await fetch(`${t.url}/v1/search?q=nurse`, { headers: { "x-api-key": created.key } })).status).toBe(200);
  const limited = await call(bearer);
  expect(limited.status).toBe(429);
  expect(await limited.json()).toMatchObject({ error: "Rate limit exceeded" });

  await t.server.keys.revoke(created.id);
  const revoked = await call(bearer);
  expect(revoked.status).toBe(401);
  expect(revoked.headers.get("www-authenticate")).toContain('error="invalid_token"');
});
