import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, expect, test } from "bun:test";
import { understoodLine } from "../../../shared/understood.ts";
import { runCli, type TestServer } from "../../support/helpers.ts";
import { understandingServer, type Page } from "../../support/understanding.ts";

/** What was understood, told back: the same query echo over REST and MCP, the CLI's line, and the line's wording. */
const server = understandingServer({ mcp: true });
const { post } = server;
let t: TestServer;
let client: Client;
beforeAll(() => {
  ({ t, client } = server);
});

test("MCP structuredContent carries the same query as REST", async () => {
  const q = "remote python developer in London";
  const rest = await post({ q });
  const result = await client.callTool({ name: "search_jobs", arguments: { query: q, top_k: 100, collapse: false } });
  const content = result.structuredContent as Page;
  expect(content.query).toEqual(rest.query);
  expect(content.results.map((r) => r.job_url)).toEqual(rest.results.map((r) => r.job_url));
});

test("the CLI prints what was understood, and --no-understand searches the exact words", async () => {
  const out = await runCli(["search", "remote python developer in London", "--url", t.url, "--api-key", t.apiKey]);
  expect(out.code).toBe(0);
  expect(out.stdout).toContain("Showing remote jobs in London for “python developer”");
  const exact = await runCli(["search", "remote python developer in London", "--no-understand", "--json", "--url", t.url, "--api-key", t.apiKey]);
  expect((JSON.parse(exact.stdout) as Page).query.applied_filters).toEqual({});
});

test("the understood line names every condition", () => {
  const line = understoodLine({
    text: "python",
    applied_filters: { remote: true, seniority: ["senior"], employment_type: ["PART_TIME"], country: "NL", tags: ["visa-sponsorship"], since: "2015-12-31 23:59:59", until: "2017-01-01" },
    corrected: null,
    hints: [],
  });
  expect(line).toBe("Showing remote senior part-time jobs in Netherlands with visa sponsorship, posted 2016-01-01 to 2016-12-31, for “python”");
  expect(understoodLine({ text: "python", applied_filters: {}, corrected: null, hints: [] })).toBeUndefined();
});
