import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import pkg from "../../../package.json" with { type: "json" };
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { closeTableUnder, startTestServer, type TestServer } from "../../support/helpers.ts";

const postings = fixturePostings();
let t: TestServer;
let client: Client;

beforeAll(async () => {
  t = await startTestServer({ records: postings });
  client = await connect(t.apiKey);
});
afterAll(async () => {
  await client.close();
  await t.stop();
});

async function connect(apiKey: string): Promise<Client> {
  const c = new Client({ name: "test-client", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { "x-api-key": apiKey } } }));
  return c;
}

/** A raw JSON-RPC POST, as a client without the SDK would send it. */
function rpc(body: unknown, headers: Record<string, string> = { "x-api-key": t.apiKey }) {
  return fetch(`${t.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

const text = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as Array<{ text: string }>)[0]!.text;

describe("initialize and tools/list", () => {
  test("reports the protocol version, tools capability and server info", () => {
    expect(client.getServerVersion()).toEqual({ name: "jobsearch", version: pkg.version });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  });

  test("answers initialize with the SDK's protocol version", async () => {
    const response = await rpc({
      jsonrpc: "2.0", id: 1, method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "curl", version: "0" } },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.result.protocolVersion).toBe("2025-03-26");
    expect(body.result.serverInfo).toEqual({ name: "jobsearch", version: pkg.version });
    expect(LATEST_PROTOCOL_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test("lists the spec's tools and ours with input and output schemas and read-only annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "check_new_jobs", "explain_match", "fetch", "find_similar_jobs", "get_job", "list_cities", "list_filters", "list_saved_searches", "match_profile", "save_search", "search", "search_jobs",
    ]);
    // Saving a search and checking it (which marks postings seen) change state; every other tool only reads.
    const writes = ["check_new_jobs", "save_search"];
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.description!.length).toBeGreaterThan(60);
      if (writes.includes(tool.name)) expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
      else expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    }
    const search = tools.find((tool) => tool.name === "search_jobs")!;
    expect(Object.keys(search.inputSchema.properties!).sort()).toEqual(
      [
        "city", "collapse", "company", "country", "detail", "employment_type", "facets", "include_unknown_salary", "min_score", "near", "offset", "query",
        "radius_km", "remote", "salary_currency", "salary_max", "salary_min", "seniority", "since", "sort", "source", "tags", "top_k", "understand", "until",
      ],
    );
    expect(search.description).toContain("list_cities");
    expect(Object.keys(search.outputSchema!.properties!).sort()).toEqual(["facets", "query", "results", "total", "total_matches"]);
  });
});

describe("search_jobs", () => {
  test("returns structuredContent {total, results} and the same JSON as text", async () => {
    const result = await client.callTool({ name: "search_jobs", arguments: { query: "registered nurse", city: "Berlin", top_k: 3 } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { total: number; results: Array<Record<string, unknown>> };
    expect(structured.total).toBe(3);
    expect(structured.results.every((job) => job.city === "Berlin")).toBe(true);
    expect(JSON.parse(text(result))).toEqual(structured);
    expect(Object.keys(structured.results[0]!)).not.toContain("job_description");
  });

  test("gives the same page as REST, with until, offset, source and detail", async () => {
    const args = { city: "London", until: "2026-03-03", source: "indeed", top_k: 2, offset: 1, detail: "full" };
    const result = await client.callTool({ name: "search_jobs", arguments: { query: "developer", ...args } });
    const rest = await fetch(`${t.url}/v1/search`, {
      method: "POST",
      headers: { "x-api-key": t.apiKey },
      body: JSON.stringify({ q: "developer", ...args }),
    }).then((r) => r.json() as Promise<{ results: unknown[] }>);
    expect((result.structuredContent as { results: unknown[] }).results).toEqual(rest.results);
    expect(rest.results).toHaveLength(2);
  });

  test("takes city and country as lists, like REST's arrays; a bad value in a list is refused as a single one is", async () => {
    const args = { city: ["Berlin", "London"], country: ["DE", "GB"], top_k: 50 };
    const result = await client.callTool({ name: "search_jobs", arguments: { query: "engineer", ...args } });
    expect(result.isError).toBeFalsy();
    const { results } = result.structuredContent as { results: Array<{ city: string }> };
    expect(new Set(results.map((job) => job.city))).toEqual(new Set(["Berlin", "London"]));
    const rest = await fetch(`${t.url}/v1/search`, { method: "POST", headers: { "x-api-key": t.apiKey }, body: JSON.stringify({ q: "engineer", ...args }) })
      .then((r) => r.json() as Promise<{ results: unknown[] }>);
    expect(results).toEqual(rest.results as typeof results);
    const bad = await client.callTool({ name: "search_jobs", arguments: { query: "engineer", country: ["DE", "de"] } });
    expect(bad.isError).toBe(true);
    expect(bad.content).toEqual([{ type: "text", text: "country must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US" }]);
  });

  test.each([
    [{}, "query is required"],
    [{ query: "" }, "query is required"],
    [{ query: "   " }, "query is required"],
    [{ query: "nurse", top_k: "five" }, "top_k must be an integer"],
    [{ query: "nurse", country: "de" }, "country must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US"],
    [{ query: "nurse", since: "last week" }, "since must be a valid date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS"],
    [{ query: "nurse", detail: "all" }, "detail must be one of: summary, full"],
    [{ query: "nurse", source: "monster" }, "source must be one of: indeed, linkedin"],
    [{ query: "nurse", offset: -2 }, "offset must be an integer >= 0"],
  ])("arguments %p give isError with %p", async (args, message) => {
    const result = await client.callTool({ name: "search_jobs", arguments: args });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: message }]);
  });

  test("takes min_score, sort and collapse like REST, and has no explain", async () => {
    const args = { query: "registered nurse", sort: "relevance", min_score: 0.8, collapse: false, explain: true, top_k: 50 };
    const result = await client.callTool({ name: "search_jobs", arguments: args });
    const results = (result.structuredContent as { results: Array<Record<string, unknown>> }).results;
    expect(results.length).toBeGreaterThan(0);
    const scores = results.map((r) => r.score as number);
    expect(scores.every((score) => score >= 0.8)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Object.keys(results[0]!)).not.toContain("fused_score");
    const bad = await client.callTool({ name: "search_jobs", arguments: { query: "nurse", sort: "newest" } });
    expect(bad).toMatchObject({ isError: true, content: [{ type: "text", text: "sort must be one of: date, relevance" }] });
  });

  test("clamps top_k", async () => {
    const result = await client.callTool({ name: "search_jobs", arguments: { query: "engineer", top_k: 1000 } });
    expect((result.structuredContent as { total: number }).total).toBe(postings.length);
  });
});

describe("list_cities", () => {
  test("returns the sorted cities that have postings and follows ingests", async () => {
    const expected = [...new Set(postings.flatMap((p) => (p.city ? [p.city] : [])))].sort();
    const result = await client.callTool({ name: "list_cities", arguments: {} });
    expect(result.structuredContent).toEqual({ total: expected.length, cities: expected });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);

    await ingestRecords(t.server, [{ ref: "new", value: { ...postings[0], id: "fx-new", city: "Aarhus", country: "DK" } }]);
    const after = await client.callTool({ name: "list_cities", arguments: {} });
    expect((after.structuredContent as { cities: string[] }).cities).toEqual(["Aarhus", ...expected]);
  });
});

describe("protocol errors", () => {
  test("an unknown tool is an isError result", async () => {
    const result = await client.callTool({ name: "nope", arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "MCP error -32602: Tool nope not found" }] });
  });

  test("tools/call works without initialize", async () => {
    const response = await rpc({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "list_cities", arguments: {} } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.id).toBe(7);
    expect(body.result.structuredContent.cities).toContain("Berlin");
  });

  test("no credentials: 401, JSON-RPC -32600 Unauthorized, id null, and where to discover OAuth", async () => {
    const response = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" }, {});
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"jsonrpc":"2.0","error":{"code":-32600,"message":"Unauthorized"},"id":null}');
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  test("an invalid Bearer token: 401 with error=\"invalid_token\"", async () => {
    const response = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: "Bearer not-a-token" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(response.headers.get("www-authenticate")).toContain(`resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`);
  });

  test("an invalid x-api-key: 403 with the REST body", async () => {
    const response = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { "x-api-key": "wrong" });
    expect(response.status).toBe(403);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ request_id: response.headers.get("x-request-id")!, error: "Invalid API key", error_code: "AUTH_INVALID_KEY" });
  });

  test.each([["application/json"], ["text/event-stream"], [""]])("Accept %p: -32000 Not Acceptable, id null", async (accept) => {
    const response = await fetch(`${t.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept, "x-api-key": t.apiKey },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    });
    expect(response.status).toBe(406);
    expect(await response.text()).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not Acceptable: Client must accept both application/json and text/event-stream"},"id":null}',
    );
  });

  test.each(["GET", "DELETE"])("%s /mcp answers 405 with Allow: POST", async (method) => {
    const response = await fetch(`${t.url}/mcp`, { method, headers: { "x-api-key": t.apiKey } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

test("an unexpected failure is JSON-RPC -32603 Internal error with HTTP 500", async () => {
  const broken = await startTestServer({ records: postings.slice(0, 2) });
  await closeTableUnder(broken.server);
  const response = await fetch(`${broken.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-api-key": broken.apiKey },
    body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "search_jobs", arguments: { query: "nurse" } } }),
  });
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 9, error: { code: -32603, message: "Internal error" } });
  await broken.stop().catch(() => {});
});
