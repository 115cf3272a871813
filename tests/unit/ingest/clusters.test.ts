import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { connectMcp, postSearch, startTestServer, type TestServer } from "../../support/helpers.ts";

/*
 * The same job, one cluster, through a real server over a real LanceDB: copies on other sources, at
 * other URLs (tracking parameters) and by agencies join their original; another role at the same
 * company and the same title at another company do not; loads again change nothing; a later copy
 * joins; results, job details and MCP carry the cluster.
 */

const ABOUT = "Acme Robotics builds warehouse robots that pick and pack parcels for retailers across Europe.";
const BACKEND = `${ABOUT} As a senior backend engineer you design the services that plan each robot's route, written in Go and Python on PostgreSQL and Kafka. You own APIs used by the fleet, review code, mentor two engineers and take part in the on-call rota once a month. We offer a hybrid week in our Berlin office, a learning budget and 30 days of holiday.`;
const DESIGNER = `${ABOUT} As a product designer you shape the dashboard warehouse managers use to watch the fleet: research with customers, flows, prototypes in Figma and a design system shared with engineering. You present your work every sprint and run usability sessions on site with our customers in Hamburg and Rotterdam.`;
const GLOBEX = "Globex runs payment rails for online shops. Our senior backend engineer builds ledger services in Java and Kotlin, keeps settlement batches correct to the cent and works with compliance on audits. Five years of experience with distributed systems and strong SQL are expected.";

const posting = (over: Record<string, unknown>) => ({
  job_title: "Senior Backend Engineer", company_name: "Acme Robotics", city: "Berlin", country: "DE", publish_time: "2026-03-02 09:00:00",
  job_tags: ["Go"], data_source: "indeed", job_description: BACKEND, ...over,
});

const FIRST = [
  posting({ id: "acme-1", job_url: "https://acme.example/jobs/1" }),
  posting({ id: "li-77", data_source: "linkedin", job_url: "https://www.linkedin.example/jobs/view/77", publish_time: "2026-03-02 11:00:00" }),
  posting({ id: "in-9", data_source: "glassdoor", job_url: "https://acme.example/jobs/1?utm_source=newsletter&utm_medium=email&gclid=abc123", publish_time: "2026-03-03 08:00:00" }),
  posting({
    id: "ag-5", data_source: "agency-feed", company_name: null, job_title: "Senior Backend Engineer (m/f/d)", job_url: "https://agency.example/r/5",
    job_description: `Our client is hiring. ${BACKEND.replace("mentor two engineers", "mentor engineers")}`,
  }),
  posting({ id: "acme-2", job_title: "Product Designer", job_url: "https://acme.example/jobs/2", job_description: DESIGNER, job_tags: ["Figma"] }),
  posting({ id: "globex-1", company_name: "Globex", job_url: "https://globex.example/careers/1", job_description: GLOBEX }),
];
const LATER = [posting({ id: "later-1", data_source: "linkedin", job_title: "Product Designer", job_url: "https://www.linkedin.example/jobs/view/90", job_description: DESIGNER, publish_time: "2026-04-01 09:00:00" })];

let t: TestServer;
let mcp: Client;
const load = (records: object[]) => ingestRecords(t.server, records.map((value, i) => ({ ref: `record ${i + 1}`, value })));
const search = async (body: Record<string, unknown>) => (await postSearch(t, { min_score: 0, top_k: 50, ...body })).body.results as any[];
const job = async (id: string) => ((await (await fetch(`${t.url}/v1/jobs/${id}`, { headers: { "x-api-key": t.apiKey } })).json()) as any).job;
/** Every posting's cluster and its facts, by id. */
const clusters = async () => Object.fromEntries((await search({ q: "engineer designer", collapse: false })).map((r) => [r.id, [r.cluster_id, r.first_seen, r.last_seen, r.times_posted]]));

beforeAll(async () => {
  t = await startTestServer({ records: FIRST });
  mcp = await connectMcp(t.url, t.apiKey);
});
afterAll(async () => {
  await mcp.close();
  await t.stop();
});

describe("the same job, one cluster", () => {
  test("copies on another source, at a tracking-parameter URL and by an agency without company join; another role and another company do not", async () => {
    const byId = Object.fromEntries((await search({ q: "backend engineer", collapse: false })).map((r) => [r.id, r.cluster_id]));
    expect(Object.keys(byId).sort()).toEqual(["acme-1", "acme-2", "ag-5", "globex-1", "in-9", "li-77"]);
    expect(byId["li-77"]).toBe(byId["acme-1"]);
    expect(byId["in-9"]).toBe(byId["acme-1"]);
    expect(byId["ag-5"]).toBe(byId["acme-1"]);
    expect(byId["acme-2"]).not.toBe(byId["acme-1"]);
    expect(byId["globex-1"]).not.toBe(byId["acme-1"]);
    expect(new Set(Object.values(byId)).size).toBe(3);
  });

  test("results carry cluster_id, first_seen, last_seen and times_posted; collapse shows one per cluster, collapse false every copy", async () => {
    const all = await search({ q: "backend engineer", collapse: false });
    for (const result of all) {
      expect(result.cluster_id).toMatch(/^c[0-9a-f]{16}$/);
      expect(result.first_seen).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(result.last_seen).toBe(result.first_seen);
    }
    expect(all.find((r) => r.id === "acme-1").times_posted).toBe(2); // published on 2026-03-02 and 03-03
    expect(all.find((r) => r.id === "globex-1").times_posted).toBe(1);
    const collapsed = await search({ q: "backend engineer" });
    expect(collapsed.length).toBe(3);
    expect(new Set(collapsed.map((r) => r.cluster_id)).size).toBe(3);
    // The newest copy is shown.
    expect(collapsed.map((r) => r.id)).toContain("in-9");
  });

  test("GET /v1/jobs/{id} lists the cluster's other postings", async () => {
    const detail = await job("acme-1");
    expect(detail.cluster_id).toMatch(/^c[0-9a-f]{16}$/);
    expect(detail.times_posted).toBe(2);
    expect(detail.same_job).toEqual([
      { id: "ag-5", data_source: "agency-feed", job_url: "https://agency.example/r/5", publish_time: "2026-03-02 09:00:00" },
      { id: "li-77", data_source: "linkedin", job_url: "https://www.linkedin.example/jobs/view/77", publish_time: "2026-03-02 11:00:00" },
      { id: "in-9", data_source: "glassdoor", job_url: "https://acme.example/jobs/1?utm_source=newsletter&utm_medium=email&gclid=abc123", publish_time: "2026-03-03 08:00:00" },
    ]);
    expect((await job("globex-1")).same_job).toEqual([]);
  });

  test("similar jobs leave out the posting's whole cluster", async () => {
    const response = await fetch(`${t.url}/v1/jobs/acme-1/similar?min_score=0&top_k=20`, { headers: { "x-api-key": t.apiKey } });
    const results = ((await response.json()) as any).results as any[];
    expect(results.map((r) => r.id)).not.toContain("li-77");
    expect(results.map((r) => r.id)).not.toContain("ag-5");
    for (const result of results) expect(typeof result.cluster_id).toBe("string");
  });

  test("POST /v1/match results carry the cluster too", async () => {
    const response = await fetch(`${t.url}/v1/match`, {
      method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ profile: "Senior backend engineer. Skills: Go, Python, PostgreSQL, Kafka.", min_score: 0 }),
    });
    expect(response.status).toBe(200);
    const results = ((await response.json()) as any).results as any[];
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect([typeof result.cluster_id, typeof result.first_seen, typeof result.times_posted]).toEqual(["string", "string", "number"]);
  });

  test("MCP search_jobs and get_job carry the cluster (the SDK validates them against the output schemas)", async () => {
    const found = await mcp.callTool({ name: "search_jobs", arguments: { query: "backend engineer", collapse: false, min_score: 0 } });
    expect(found.isError).toBeFalsy();
    const results = (found.structuredContent as any).results as any[];
    expect(results.every((r) => typeof r.cluster_id === "string" && typeof r.first_seen === "string" && Number.isInteger(r.times_posted))).toBe(true);
    const detail = await mcp.callTool({ name: "get_job", arguments: { id: "li-77" } });
    expect((detail.structuredContent as any).job.same_job.map((p: any) => p.id)).toEqual(["acme-1", "ag-5", "in-9"]);
  });

  test("loading the same file again, or with its postings moved to another source, changes nothing", async () => {
    const before = await clusters();
    const again = await load(FIRST);
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: FIRST.length });
    expect(await clusters()).toEqual(before);
    const moved = await load(FIRST.map((record) => ({ ...record, data_source: "moved-feed" })));
    expect(moved).toMatchObject({ inserted: 0, updated: FIRST.length });
    expect(await clusters()).toEqual(before);
  });

  test("a later load's copy joins the earlier cluster: first_seen stays, last_seen moves, times_posted counts its day", async () => {
    const before = await job("acme-2");
    await load(LATER);
    const copy = await job("later-1");
    const original = await job("acme-2");
    expect(copy.cluster_id).toBe(before.cluster_id);
    expect(original.same_job.map((p: any) => p.id)).toEqual(["later-1"]);
    expect(original.first_seen).toBe(before.first_seen);
    expect(original.last_seen > before.last_seen).toBe(true);
    expect(original.times_posted).toBe(2);
    const collapsed = await search({ q: "product designer" });
    expect(collapsed.filter((r) => r.cluster_id === before.cluster_id).map((r) => r.id)).toEqual(["later-1"]);
  });
});
