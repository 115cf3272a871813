import { afterAll, expect, test } from "bun:test";
import { makeArrowTable } from "@lancedb/lancedb";
import { rmSync } from "node:fs";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { openStore } from "../../../server/store/store.ts";
import { MODELS_DIR, postSearch, startTestServer, tempDir, type TestServer } from "../../support/helpers.ts";

/*
 * A table loaded before clusters (no cluster columns, no cluster_id in result_json) still serves, each
 * posting its own cluster without first_seen; its next load adds the columns and assigns every posting.
 */

const TEXT = "Northwind Traders is hiring a data engineer to build batch and streaming pipelines in Python, Spark and Airflow, model the warehouse in dbt and keep dashboards for finance and sales correct. You will work with analysts every day and own the data platform's reliability and costs.";
const records = [
  { id: "nw-1", job_title: "Data Engineer", company_name: "Northwind", city: "Lisbon", country: "PT", publish_time: "2026-02-01 10:00:00", job_url: "https://nw.example/1", data_source: "indeed", job_description: TEXT },
  { id: "nw-2", job_title: "Data Engineer", company_name: "Northwind", city: "Lisbon", country: "PT", publish_time: "2026-02-03 10:00:00", job_url: "https://board.example/2?utm_campaign=x", data_source: "linkedin", job_description: TEXT },
];
const dir = tempDir();
let t: TestServer | undefined;

afterAll(async () => {
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a table loaded before clusters serves, and its next load clusters every posting", async () => {
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const store = await openStore({ dataDir: dir, modelId: embedder.modelId, dimension: embedder.dimension });
  await ingestRecords({ store, embedder }, records.map((value, i) => ({ ref: `record ${i + 1}`, value })));
  // Back to the shape of a table loaded before clusters.
  const rows = await store.table.query().select(["id", "result_json"]).toArray();
  await store.table.mergeInsert("id").whenMatchedUpdateAll().execute(makeArrowTable(rows.map((row) => {
    const { cluster_id: _, ...fields } = JSON.parse(row.result_json);
    return { id: row.id, result_json: JSON.stringify(fields) };
  })));
  await store.table.dropColumns(["cluster_id", "same_job_sig"]);
  store.close();

  t = await startTestServer({ dataDir: dir });
  const before = (await postSearch(t, { q: "data engineer", collapse: false, min_score: 0 })).body.results as any[];
  expect(before.map((r) => r.id).sort()).toEqual(["nw-1", "nw-2"]);
  for (const result of before) {
    expect(result.cluster_id).toBe(result.id);
    expect(result.first_seen).toBeUndefined();
  }

  const summary = await ingestRecords(t.server, [{ ref: "record 1", value: { ...records[0], id: "nw-3", job_url: "https://other.example/3", data_source: "glassdoor" } }]);
  expect(summary.inserted).toBe(1);
  const answer = await postSearch(t, { q: "data engineer", collapse: false, min_score: 0 });
  expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 200, error: undefined });
  const after = answer.body.results as any[];
  expect(after.map((r) => r.id).sort()).toEqual(["nw-1", "nw-2", "nw-3"]);
  expect(new Set(after.map((r) => r.cluster_id)).size).toBe(1);
  expect(after.every((r) => typeof r.first_seen === "string" && r.times_posted === 2)).toBe(true);
  const collapsed = (await postSearch(t, { q: "data engineer", min_score: 0 })).body.results as any[];
  expect(collapsed.length).toBe(1);
});
