import { afterAll, expect, test } from "bun:test";
import { NO_FILTERS, filterSet } from "../../../server/store/filter-set.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { openStore } from "../../../server/store/store.ts";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { maintainVectorIndex } from "../../../server/store/index-maintenance.ts";
import { buildWhere } from "../../../server/store/filter.ts";
import { partitionedIndex } from "../../../server/store/indexes.ts";
import { createLogger } from "../../../server/log.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { ingestKilledDuringRebuild, MODELS_DIR, runCli, spawnServer, tempDir } from "../../support/helpers.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test("the server builds the ANN index in the background past VECTOR_INDEX_MIN_ROWS, and searches stay right meanwhile", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const file = join(dataDir, "postings.json");
  await Bun.write(file, JSON.stringify(fixturePostings()));
  expect((await runCli(["ingest", file], { DATA_DIR: dataDir })).code).toBe(0);
  const created = await runCli(["keys", "create", "--name", "index", "--json"], { DATA_DIR: dataDir });
  const { key } = JSON.parse(created.stdout) as { key: string };

  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const store = await openStore({ dataDir, modelId: embedder.modelId, dimension: embedder.dimension, readConsistencyMs: 0 });
  const indexed = async () => (await store.table.listIndices()).some((index) => index.columns.includes("vector"));
  expect(await indexed()).toBe(false);

  const server = await spawnServer(dataDir, { VECTOR_INDEX_MIN_ROWS: "10", DEMO_DATA: "false" });
  const search = async (body: object) => {
    const response = await fetch(`${server.ready.url}/v1/search`, { method: "POST", headers: { "x-api-key": key }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    return (await response.json()) as { total: number; results: Array<{ city?: string; job_url: string }> };
  };
  try {
    const before = await search({ q: "registered nurse", city: "Berlin", top_k: 6, sort: "relevance" });
    const started = Date.now();
    while (!(await indexed()) && Date.now() - started < 20_000) {
      expect((await search({ q: "ios developer", top_k: 10 })).total).toBe(10);
      await Bun.sleep(100);
    }
    expect(await indexed()).toBe(true);
    await Bun.sleep(200);
    // Same answers through the index: filtered pages full, the same postings in the same order.
    const after = await search({ q: "registered nurse", city: "Berlin", top_k: 6, sort: "relevance" });
    expect(after.total).toBe(6);
    expect(after.results.map((r) => r.job_url)).toEqual(before.results.map((r) => r.job_url));
    const page1 = await search({ q: "software developer", top_k: 5, offset: 0, sort: "relevance" });
    const page2 = await search({ q: "software developer", top_k: 5, offset: 5, sort: "relevance" });
    const whole = await search({ q: "software developer", top_k: 10, sort: "relevance" });
    expect([...page1.results, ...page2.results].map((r) => r.job_url)).toEqual(whole.results.map((r) => r.job_url));
  } finally {
    await server.stop();
    store.close();
  }
}, 60_000);

test("a table below the threshold gets no index", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const store = await openStore({ dataDir, modelId: embedder.modelId, dimension: embedder.dimension });
  expect(await store.ensureVectorIndex(10)).toBe(false);
  store.close();
});

test("a large load rebuilds the index in one piece itself; rows written without that step are rebuilt by the server in the background", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const store = await openStore({ dataDir, modelId: embedder.modelId, dimension: embedder.dimension });
  const postings = fixturePostings();
  const records = (from: number, to: number) => postings.slice(from, to).map((value, i) => ({ ref: `record ${i + 1}`, value }));
  const messages: string[] = [];
  const log = createLogger("info", (line) => messages.push(JSON.parse(line).msg));
  const until = async (what: () => Promise<boolean>) => {
    const started = Date.now();
    while (!(await what())) {
      if (Date.now() - started > 30_000) throw new Error("timed out");
      const page = await store.nearest(await embedder.embedQuery("nurse"), NO_FILTERS, 5);
      expect(page.length).toBe(5);
      await Bun.sleep(50);
    }
  };
  // The first load builds the index itself once past the threshold.
  const first = await ingestRecords({ store, embedder }, records(0, 20), { vectorIndexMinRows: 10 });
  expect(first.index).toMatchObject({ work: "build", rows: 20 });
  expect(await store.vectorIndexState()).toMatchObject({ indexedRows: 20, unindexedRows: 0, segments: 1 });
  // A load that adds more than 20%: its optimize() folds the rows in as a second segment, then it rebuilds.
  const second = await ingestRecords({ store, embedder }, records(20, 40), { vectorIndexMinRows: 10 });
  expect(second.index).toMatchObject({ work: "rebuild", rows: 40 });
  expect(await store.vectorIndexState()).toMatchObject({ indexedRows: 40, unindexedRows: 0, segments: 1 });
  // A CLI load killed during its own rebuild leaves the new rows in a second segment: the server's maintainer rebuilds.
  const file = join(dataDir, "rest.json");
  await Bun.write(file, JSON.stringify(postings.map((p) => ({ ...p, id: `${p.id}-more` }))));
  const said = await ingestKilledDuringRebuild(file, { DATA_DIR: dataDir, VECTOR_INDEX_MIN_ROWS: "10" });
  expect(said).toContain("rebuilding the vector index over");
  await store.refresh();
  expect((await store.vectorIndexState())?.segments).toBe(2);
  const maintainer = maintainVectorIndex(store, 10, log, 50);
  try {
    await until(async () => (await store.vectorIndexState())?.indexedRows === 40 + postings.length && (await store.vectorIndexState())?.segments === 1);
    expect(messages).toContain("rebuilt the ANN index after loads");
  } finally {
    await maintainer.stop();
    store.close();
  }
}, 60_000);

test("a partitioned (IVF_FLAT, l2) index gives the exact nearest postings, with and without a filter", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const store = await openStore({ dataDir, modelId: embedder.modelId, dimension: embedder.dimension });
  try {
    const records = fixturePostings().map((value, i) => ({ ref: `record ${i + 1}`, value }));
    await ingestRecords({ store, embedder }, records, { vectorIndexMinRows: 1_000_000 });
    // What tables from PARTITIONED_FROM rows get, in few partitions: every one is probed, so the answers are exact.
    await store.table.createIndex("vector", { config: partitionedIndex(4) });
    expect((await store.table.indexStats("vector_idx"))?.distanceType).toBe("l2");
    for (const [text, filters] of [["registered nurse", {}], ["software developer", { city: "Berlin" }], ["nurse", { country: "DE" }]] as const) {
      const vector = await embedder.embedQuery(text);
      let exact = store.table.query().nearestTo(vector).distanceType("dot").bypassVectorIndex().select(["id", "_distance"]).limit(5);
      const where = buildWhere(filterSet(filters));
      if (where !== undefined) exact = exact.where(where);
      const expected = (await exact.toArray()).map((row) => row.id as string);
      expect(expected.length).toBeGreaterThan(0);
      expect((await store.nearest(vector, filterSet(filters), 5)).map(({ row }) => row.id)).toEqual(expected);
    }
  } finally {
    store.close();
  }
});
