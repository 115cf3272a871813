/** /healthz and /readyz: open without a key, ready with the table and model checks, 503 when the table is closed. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { closeTableUnder, startTestServer, type TestServer } from "../../support/helpers.ts";
import { scrape, value } from "../../support/ops.ts";

const postings = fixturePostings();
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ records: postings });
});
afterAll(() => t.stop());

describe("probes", () => {
  test("/healthz answers 200 without an API key", async () => {
    const response = await fetch(`${t.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("x-request-id")).toBeString();
  });

  test("/readyz answers 200 with the table and model checks when ready", async () => {
    const response = await fetch(`${t.url}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.status).toBe("ready");
    expect(body.checks.table).toMatchObject({ ok: true, postings: postings.length });
    expect(body.checks.model).toMatchObject({ ok: true, id: t.server.embedder.modelId, dimension: t.server.embedder.dimension });
  });
});

describe("not ready", () => {
  test("with the table closed, /readyz answers 503 saying so, /healthz stays 200 and /metrics reports ready 0", async () => {
    const s = await startTestServer({ records: postings.slice(0, 2) });
    try {
      await closeTableUnder(s.server);
      const response = await fetch(`${s.url}/readyz`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as any;
      expect(body.status).toBe("not_ready");
      expect(body.checks.table.ok).toBe(false);
      expect(body.checks.table.error).toContain("closed");
      expect(body.checks.model.ok).toBe(true);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      expect(value((await scrape(s.url)).samples, "jobsearch_ready")).toBe(0);
    } finally {
      await s.stop().catch(() => {});
    }
  });
});
