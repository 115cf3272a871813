import { afterAll, beforeAll, expect, test } from "bun:test";
import { fixturePostings } from "./fixtures/postings.ts";
import { runCli, startTestServer, type TestServer } from "./helpers.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
});
afterAll(() => t.stop());

test("prints a table of results", async () => {
  const { stdout, code } = await runCli(["search", "registered nurse", "--city", "Berlin", "--top-k", "3", "--url", t.url, "--api-key", t.apiKey]);
  expect(code).toBe(0);
  const lines = stdout.trim().split("\n");
  expect(lines[0]).toMatch(/^#\s+date\s+score\s+title\s+company\s+city\s+salary$/);
  expect(lines).toHaveLength(5);
  expect(lines.at(-1)).toMatch(/^3 results in \d+ ms$/);
  expect(stdout).toContain("Registered Nurse");
});

test("--json prints the response and reads JOBSEARCH_URL / JOBSEARCH_API_KEY", async () => {
  const { stdout, code } = await runCli(["search", "accountant", "--json", "--source", "linkedin", "--top-k", "100"], {
    JOBSEARCH_URL: t.url,
    JOBSEARCH_API_KEY: t.apiKey,
  });
  expect(code).toBe(0);
  const body = JSON.parse(stdout);
  expect(body.total).toBe(21);
  expect(body.results.every((r: { data_source: string }) => r.data_source === "linkedin")).toBe(true);
});

test.each([
  [["--api-key", "wrong"], "error [AUTH_INVALID_KEY]: Invalid API key"],
  [["--country", "germany"], "error [INVALID_PARAMETER]: country must be two uppercase letters"],
  [["--top-k", "many"], "error [INVALID_PARAMETER]: top_k must be an integer"],
])("prints error [CODE]: message and exits 1 for %p", async (extra, message) => {
  const { stderr, code } = await runCli(["search", "nurse", "--url", t.url, ...extra], { JOBSEARCH_API_KEY: t.apiKey });
  expect(code).toBe(1);
  expect(stderr).toContain(message);
});

test("an unreachable service is a clear error", async () => {
  const { stderr, code } = await runCli(["search", "nurse", "--url", "http://127.0.0.1:9", "--api-key", "x"]);
  expect(code).toBe(1);
  expect(stderr).toContain("error [SERVICE_UNAVAILABLE]: cannot reach http://127.0.0.1:9");
});
