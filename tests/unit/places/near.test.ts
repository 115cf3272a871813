import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { runCli, startTestServer, type TestServer } from "../../support/helpers.ts";

/** `near` + `radius_km`: postings whose city lies within a radius of a named place (offline gazetteer). */
const base = fixturePostings()[0]!;
const PLACES: Array<[string, string, string]> = [
  ["n1", "Lyon", "FR"], ["n2", "Villeurbanne", "FR"], ["n3", "Paris", "FR"],
  ["n4", "Mountain View", "US"], ["n5", "Palo Alto", "US"], ["n6", "北京", "CN"], ["n7", "Nowhere Town", "US"],
  ["n8", "New York", "US"], ["n9", "Brooklyn", "US"], ["n10", "Offenbach", "DE"], ["n11", "Frankfurt am Main", "DE"],
];
const POSTINGS = PLACES.map(([id, city, country], i) => ({
  ...base, id, city, country, job_title: "Nurse", job_description: "Registered nurse, day shifts.", job_url: `https://jobs.example.com/${id}`, company_name: `Clinic ${i}`,
}));

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ records: POSTINGS });
});
afterAll(() => t.stop());

const cities = (page: { results: Array<{ city?: string }> }) => page.results.map((r) => r.city).sort();
const post = async (body: object) => {
  const response = await fetch(`${t.url}/v1/search`, {
    method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify({ q: "nurse", top_k: 50, collapse: false, ...body }),
  });
  return { status: response.status, body: (await response.json()) as { results: Array<{ city?: string }>; error?: string } };
};

test.each([
  [{ near: "Lyon", radius_km: 20 }, ["Lyon", "Villeurbanne"]],
  [{ near: "Lyon", radius_km: 500 }, ["Lyon", "Paris", "Villeurbanne"]],
  [{ near: "Mountain View, CA", radius_km: 15 }, ["Mountain View", "Palo Alto"]],
  [{ near: "Palo Alto" }, ["Mountain View", "Palo Alto"]],
  [{ near: "Beijing", radius_km: 30 }, ["北京"]],
  // Short names: the gazetteer says "New York City" and "Frankfurt am Main".
  [{ near: "New York", radius_km: 20 }, ["Brooklyn", "New York"]],
  [{ near: "Brooklyn", radius_km: 20 }, ["Brooklyn", "New York"]],
  [{ near: "Frankfurt", radius_km: 10 }, ["Frankfurt am Main", "Offenbach"]],
])("POST %p finds the postings within the radius", async (body, expected) => {
  const { status, body: page } = await post(body);
  expect(status).toBe(200);
  expect(cities(page)).toEqual(expected);
});

test("GET, MCP and the CLI take near too; an unknown place or a bad radius is a 400", async () => {
  const got = (await (await fetch(`${t.url}/v1/search?q=nurse&near=${encodeURIComponent("Lyon, FR")}&radius_km=20`, { headers: { "x-api-key": t.apiKey } })).json()) as { results: Array<{ city?: string }> };
  expect(cities(got)).toEqual(["Lyon", "Villeurbanne"]);
  const client = new Client({ name: "near", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { "x-api-key": t.apiKey } } }));
  try {
    const result = await client.callTool({ name: "search_jobs", arguments: { query: "nurse", near: "Mountain View, CA", radius_km: 15, top_k: 50 } });
    expect(cities(result.structuredContent as { results: Array<{ city?: string }> })).toEqual(["Mountain View", "Palo Alto"]);
  } finally {
    await client.close();
  }
  const cli = await runCli(["search", "nurse", "--near", "Lyon", "--radius-km", "20", "--json", "--url", t.url, "--api-key", t.apiKey]);
  expect(cities(JSON.parse(cli.stdout))).toEqual(["Lyon", "Villeurbanne"]);

  const unknown = await post({ near: "Xyzzyville" });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error).toBe('near: no place called "Xyzzyville" is known (try "City", "City, ST" for a US state or "City, CC" for a country)');
  expect((await post({ near: "Lyon", radius_km: 0 })).body.error).toBe("radius_km must be a number above 0 and at most 20000");
  expect((await post({ near: "Lyon' OR '1'='1" })).status).toBe(400);
});
