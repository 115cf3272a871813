/**
 * The Grafana dashboard (docs/ops/grafana/jobsearch.json), checked as JSON against a real server's /metrics:
 * every panel reads the service's own jobsearch_* metrics only, and each metric it reads is exported.
 * Also the metrics added for it: errors by code, in-flight refusals, the in-memory copy, the disk.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { ROOT, postSearch, slowSearch, startTestServer, until, type TestServer } from "../../support/helpers.ts";
import { scrape, value } from "../../support/ops.ts";

/**
 * Metrics a panel reads that no server exports yet, with why. Webhook deliveries are being added on
 * another branch as jobsearch_webhook_deliveries_total{outcome}; once a server exports it, this test
 * fails until the name is taken off this list (so the list cannot go stale).
 */

/** The panels the dashboard must have (issue 27), by a word of their title. */
const REQUIRED_PANELS = [/searches per second/i, /search latency/i, /errors by code/i, /cache hit rate/i, /rate limit and in flight/i, /postings and loads/i, /in-memory copy/i, /webhook deliveries/i];

interface Panel {
  title: string;
  targets: Array<{ expr: string }>;
}
const dashboard = (await Bun.file(join(ROOT, "docs/ops/grafana/jobsearch.json")).json()) as { panels: Panel[]; uid: string; title: string };

/** The metric names an expression selects: every name before `{` (each selector carries the instance filter). */
function metricsOf(expr: string): string[] {
  return [...expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{/g)].map((m) => m[1]!);
}

/** A histogram's series name (`_bucket`, `_count`, `_sum`) to the metric's name as # TYPE names it. */
function baseName(name: string, types: Map<string, string>): string {
  const base = name.replace(/_(bucket|count|sum)$/, "");
  return base !== name && types.get(base) === "histogram" ? base : name;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings(), env: { MAX_IN_FLIGHT_PER_KEY: "1" } });
});
afterAll(() => t.stop());

describe("the Grafana dashboard", () => {
  test("has a panel for each of the issue's signals, each with a query", () => {
    expect(dashboard.uid).toBe("jobsearch");
    for (const title of REQUIRED_PANELS) expect(dashboard.panels.some((panel) => title.test(panel.title))).toBe(true);
    for (const panel of dashboard.panels) expect(panel.targets.length).toBeGreaterThan(0);
  });

  test("reads the service's own jobsearch_* metrics only", () => {
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        const names = metricsOf(target.expr);
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) expect(name).toStartWith("jobsearch_");
      }
    }
  });

  test("every panel's query is valid PromQL (promtool checks them as recording rules, Grafana's variables filled in)", async () => {
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    const filled = exprs.map((expr) => expr.replaceAll("$__rate_interval", "5m").replaceAll("$instance", ".*"));
    const rules = filled.map((expr, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(expr)}`).join("\n");
    const dir = mkdtempSync(join(tmpdir(), "jobsearch-dashboard-"));
    try {
      writeFileSync(join(dir, "queries.yaml"), `groups:\n  - name: dashboard\n    rules:\n${rules}\n`);
      const proc = Bun.spawn(["promtool", "check", "rules", join(dir, "queries.yaml")], { stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(`${out}${err}`).toContain(`SUCCESS: ${exprs.length} rules found`);
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("every metric a panel reads is exported by a running server", async () => {
    // A search and an error first, so that the counters that start at their first event have one.
    expect((await postSearch(t, { q: "nurse", top_k: 2 })).status).toBe(200);
    expect((await postSearch(t, { q: "nurse", top_k: 2 })).status).toBe(200);
    expect((await postSearch(t, { q: "nurse", offset: -1 })).status).toBe(400);
    const { samples, types } = await scrape(t.url);
    const exported = new Set(samples.map((sample) => baseName(sample.name, types)));
    const used = new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricsOf(target.expr))));
    const missing = [...used].filter((name) => !exported.has(baseName(name, types)) && !types.has(baseName(name, types)));
    expect(missing).toEqual([]);
  });
});

describe("the metrics the dashboard reads", () => {
  test("errors by route and error_code", async () => {
    const before = (await scrape(t.url)).samples;
    expect((await postSearch(t, { q: "nurse", offset: -1 })).status).toBe(400);
    const unknownKey = await postSearch<{ error_code: string }>({ url: t.url, apiKey: "jsk_unknown" }, { q: "nurse" });
    expect(unknownKey.status).toBe(403);
    const after = (await scrape(t.url)).samples;
    const grew = (labels: Record<string, string>) => value(after, "jobsearch_errors_total", labels) - value(before, "jobsearch_errors_total", labels);
    expect(grew({ route: "/v1/search", code: "INVALID_PARAMETER" })).toBe(1);
    expect(grew({ route: "/v1/search", code: unknownKey.body.error_code })).toBe(1);
  });

  test("a 429 for want of a slot in flight counts as a refusal in flight and as rate limited", async () => {
    // The held request's headers may reach the handler after the next search's: then that search took
    // the slot and the held one was refused, and both are tried again from a new reading.
    const { before, held, refused } = await until(async () => {
      const before = (await scrape(t.url)).samples;
      const held = await slowSearch(t.url, t.apiKey);
      const refused = await postSearch(t, { q: "nurse" });
      if (refused.status !== 429) await held.finish();
      return { before, held, refused };
    }, (tried) => tried.refused.status === 429);
    expect((await held.finish()).status).toBe(200);
    const after = (await scrape(t.url)).samples;
    const grew = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(grew("jobsearch_in_flight_refused_total", { route: "/v1/search" })).toBe(1);
    expect(grew("jobsearch_rate_limited_total", { route: "/v1/search" })).toBe(1);
    expect(grew("jobsearch_errors_total", { route: "/v1/search", code: "RATE_LIMITED" })).toBe(1);
  });

  test("the in-memory copy and the disk of DATA_DIR", async () => {
    const { samples } = await scrape(t.url);
    const copy = t.server.store.memoryCopy();
    expect(copy && "version" in copy).toBe(true);
    const held = copy as { version: number; postings: number; bytes: number };
    expect(value(samples, "jobsearch_memory_copy_postings")).toBe(held.postings);
    expect(value(samples, "jobsearch_memory_copy_postings")).toBe(value(samples, "jobsearch_postings"));
    expect(value(samples, "jobsearch_memory_copy_bytes")).toBe(held.bytes);
    expect(value(samples, "jobsearch_memory_copy_version")).toBe(value(samples, "jobsearch_table_version"));
    const size = value(samples, "jobsearch_disk_size_bytes");
    const free = value(samples, "jobsearch_disk_free_bytes");
    expect(size).toBeGreaterThan(0);
    expect(free).toBeGreaterThan(0);
    expect(free).toBeLessThanOrEqual(size);
  });
});

