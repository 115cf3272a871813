import { afterAll, expect, test } from "bun:test";
import { NO_FILTERS, filterSet } from "../../../server/store/filter-set.ts";
import { rmSync } from "node:fs";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { openStore } from "../../../server/store/store.ts";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { maintainVectorIndex } from "../../../server/store/index-maintenance.ts";
import { buildWhere } from "../../../server/store/filter.ts";
import { partitionedIndex } from "../../../server/store/indexes.ts";
import { createLogger } from "../../../server/log.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { MODELS_DIR, serverLog, spawnServer, tempDir } from "../../support/helpers.ts";
import { createApiKey, loadDataDir } from "../../support/stores.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test("the server builds the ANN index in the background past VECTOR_INDEX_MIN_ROWS, and searches stay right meanwhile", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  await loadDataDir(dataDir, fixturePostings());
  const key = await createApiKey(dataDir, "index");

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
  // The server logs the build once it is committed and the server reads the new version.
  const built = serverLog(server).saying("built the ANN index on the vectors");
  let done = false;
  void built.then(() => (done = true), () => (done = true));
  try {
    const before = await search({ q: "registered nurse", city: "Berlin", top_k: 6, sort: "relevance" });
    // Searches during the build (paced, not timed: however long the build takes on a busy machine).
    while (!done) {
      expect((await search({ q: "ios developer", top_k: 10 })).total).toBe(10);
      await Promise.race([built, Bun.sleep(100)]);
    }
    await built;
    expect(await indexed()).toBe(true);
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
  let rebuilt: () => void = () => {};
  const rebuiltLogged = new Promise<void>((resolve) => (rebuilt = resolve));
  const log = createLogger("info", (line) => {
    const { msg } = JSON.parse(line) as { msg: string };
    messages.push(msg);
    if (msg === "rebuilt the ANN index after loads") rebuilt();
  });
  // The first load builds the index itself once past the threshold.
  const first = await ingestRecords({ store, embedder }, records(0, 20), { vectorIndexMinRows: 10 });
  expect(first.index).toMatchObject({ work: "build", rows: 20 });
  expect(await store.vectorIndexState()).toMatchObject({ indexedRows: 20, unindexedRows: 0, segments: 1 });
  // A load that adds more than 20%: its optimize() folds the rows in as a second segment, then it rebuilds.
  const second = await ingestRecords({ store, embedder }, records(20, 40), { vectorIndexMinRows: 10 });
  expect(second.index).toMatchObject({ work: "rebuild", rows: 40 });
  expect(await store.vectorIndexState()).toMatchObject({ indexedRows: 40, unindexedRows: 0, segments: 1 });
  // A load stopped as its rebuild starts (what a kill during the rebuild leaves: the rows committed and
  // folded in as a second segment) is rebuilt by the server's maintainer. Stopped in-process, at that
  // step: a CLI killed once it says so may finish a rebuild of 76 rows before the signal lands.
  const more = postings.map((p, i) => ({ ref: `more ${i + 1}`, value: { ...p, id: `${p.id}-more` } }));
  const cut = ingestRecords({ store, embedder }, more, { vectorIndexMinRows: 10, onIndex: (work) => { throw new Error(`stopped before the ${work}`); } });
  await expect(cut).rejects.toThrow("stopped before the rebuild");
  await store.refresh();
  expect(await store.vectorIndexState()).toMatchObject({ indexedRows: 40 + postings.length, unindexedRows: 0, segments: 2 });
  const maintainer = maintainVectorIndex(store, 10, log, 50);
  try {
    // Searches stay right while the maintainer's process rebuilds (paced, not timed).
    let done = false;
    void rebuiltLogged.then(() => (done = true));
    while (!done) {
      expect((await store.nearest(await embedder.embedQuery("nurse"), NO_FILTERS, 5)).length).toBe(5);
      await Promise.race([rebuiltLogged, Bun.sleep(50)]);
    }
    await store.refresh();
    expect(await store.vectorIndexState()).toMatchObject({ indexedRows: 40 + postings.length, segments: 1 });
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
