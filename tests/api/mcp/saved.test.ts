import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { connectMcp, startTestServer, type TestServer } from "../../support/helpers.ts";

/**
 * The saved-search tools through the SDK's own client: save_search, list_saved_searches and
 * check_new_jobs, per principal (a saved search made over MCP is the same key's over REST), each new
 * posting returned once.
 */

let t: TestServer;
let mcp: Client;
let other: Client;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
  mcp = await connectMcp(t.url, t.apiKey);
  other = await connectMcp(t.url, (await t.server.keys.create("other")).key);
});
afterAll(async () => {
  await Promise.all([mcp.close(), other.close()]);
  await t.stop();
});

const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, text: (result.content as Array<{ text: string }>)[0]!.text, data: result.structuredContent as any };
};

describe("saved-search tools", () => {
  test("save_search, list_saved_searches, then check_new_jobs returns each new match once", async () => {
    const saved = await call(mcp, "save_search", { name: "ios", query: "ios developer", country: "DE" });
    expect(saved.isError).toBe(false);
    expect(saved.data).toMatchObject({ name: "ios", params: { q: "ios developer", country: "DE" }, webhook_url: null });
    expect(saved.data.feed_url).toStartWith(`${t.url}/v1/feeds/`);
    const listed = await call(mcp, "list_saved_searches", {});
    expect(listed.data.saved_searches.map((s: { id: string }) => s.id)).toEqual([saved.data.id]);
    // The same key over REST sees it.
    const rest = await fetch(`${t.url}/v1/saved-searches/${saved.data.id}`, { headers: { "x-api-key": t.apiKey } });
    expect(rest.status).toBe(200);

    expect((await call(mcp, "check_new_jobs", { name: "ios" })).data.results).toEqual([]);
    const base = fixturePostings().find((p) => p.job_title === "iOS Developer" && p.country === "DE")!;
    await ingestRecords(t.server, [{ ref: "n", value: { ...base, id: "mcp-new", job_url: "https://jobs.example.com/mcp-new", company_name: "Swift Co" } }]);
    const fresh = await call(mcp, "check_new_jobs", { id: saved.data.id });
    expect(fresh.data.results.map((r: { id: string }) => r.id)).toEqual(["mcp-new"]);
    expect(fresh.data.total).toBe(1);
    expect((await call(mcp, "check_new_jobs", { name: "ios" })).data.results).toEqual([]);
    const again = await call(mcp, "check_new_jobs", { name: "ios", since: fresh.data.since });
    expect(again.data.results.map((r: { id: string }) => r.id)).toEqual(["mcp-new"]);
  });

  test("another principal's saved search is not found; mistakes are error results that say what to do", async () => {
    const { data } = await call(mcp, "list_saved_searches", {});
    const id = data.saved_searches[0].id;
    const foreign = await call(other, "check_new_jobs", { id });
    expect(foreign).toMatchObject({ isError: true });
    expect(foreign.text).toContain("saved search not found");
    expect((await call(other, "list_saved_searches", {})).data.saved_searches).toEqual([]);
    const noQuery = await call(mcp, "save_search", { name: "x" });
    expect(noQuery.isError).toBe(true);
    expect(noQuery.text).toContain("query is required");
    expect((await call(mcp, "check_new_jobs", {})).text).toContain("id or name is required");
    expect((await call(mcp, "save_search", { name: "ios", query: "again" })).text).toContain("exists");
  });
});
