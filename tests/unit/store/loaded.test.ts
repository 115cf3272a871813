import { afterAll, beforeAll, expect, test } from "bun:test";
import * as lancedb from "@lancedb/lancedb";
import { Schema } from "apache-arrow";
import { rmSync } from "node:fs";
import { loadEmbedder, type Embedder } from "../../../server/embedding/embedder.ts";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { latestLoad, loadedAfter } from "../../../server/store/postings.ts";
import { jobsSchema, TABLE_NAME } from "../../../server/store/schema.ts";
import { openStore, type JobStore } from "../../../server/store/store.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { MODELS_DIR, tempDir } from "../../support/helpers.ts";

/**
 * The first-load time of each posting (what "new" means to a saved search): stamped by the load that
 * first stores an id, kept when the id is loaded again (unchanged or changed), later for a later load.
 */

let embedder: Embedder;
let store: JobStore;
const dir = tempDir();
beforeAll(async () => {
  embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  store = await openStore({ dataDir: dir, modelId: embedder.modelId, dimension: embedder.dimension });
});
afterAll(async () => {
  await store.settle();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const records = (postings: object[]) => postings.map((value, i) => ({ ref: `r${i}`, value }));

test("a load stamps new ids; loading them again, changed or not, keeps the first time", async () => {
  expect(await latestLoad(store.table)).toBe(0);
  const postings = fixturePostings().slice(0, 4);
  await ingestRecords({ store, embedder }, records(postings));
  const first = await latestLoad(store.table);
  expect(first).toBeGreaterThan(0);
  expect((await loadedAfter(store.table, 0)).map((p) => p.id).sort()).toEqual(postings.map((p) => p.id).sort());
  const changed = { ...postings[0]!, job_title: "Principal Backend Engineer" };
  await ingestRecords({ store, embedder }, records([changed, ...postings.slice(1), { ...postings[0]!, id: "later", job_url: "https://jobs.example.com/later" }]));
  const fresh = await loadedAfter(store.table, first);
  expect(fresh.map((p) => p.id)).toEqual(["later"]);
  expect(await latestLoad(store.table)).toBe(fresh[0]!.loadedAt);
  expect(fresh[0]!.loadedAt).toBeGreaterThan(first);
});

test("after a load, the statistics it wrote are the ones kept: a later look at the file does not read them again", async () => {
  await ingestRecords({ store, embedder }, records(fixturePostings().slice(4, 6)));
  const stats = store.termStats();
  expect(stats).toBeDefined();
  // Caches key on the statistics object (pages, spelling, matching's skills): a copy read back would start them afresh.
  await store.refresh();
  expect(store.termStats()).toBe(stats);
});

test("a table made before the column gets it at the next load; its older postings are never new", async () => {
  const old = tempDir();
  try {
    const full = jobsSchema(embedder.modelId, embedder.dimension);
    const db = await lancedb.connect(old);
    await db.createEmptyTable(TABLE_NAME, new Schema(full.fields.filter((f) => f.name !== "loaded_at"), full.metadata));
    db.close();
    const legacy = await openStore({ dataDir: old, modelId: embedder.modelId, dimension: embedder.dimension });
    expect(await loadedAfter(legacy.table, 0)).toEqual([]);
    await ingestRecords({ store: legacy, embedder }, records(fixturePostings().slice(0, 2)));
    expect((await loadedAfter(legacy.table, 0)).length).toBe(2);
    await legacy.settle();
    legacy.close();
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
});
