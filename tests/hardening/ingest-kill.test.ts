import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ingestFile } from "../../server/ingest/ingest.ts";
import { loadEmbedder, type Embedder } from "../../server/embedding/embedder.ts";
import { openStore } from "../../server/store/store.ts";
import { MODELS_DIR, ROOT, latestTableVersion, seededRandom, tempDir, until } from "../support/helpers.ts";
import { sharedRecords } from "../support/stores.ts";

/**
 * SIGKILL during a real CLI load, 8 times at seeded random points of the load. The load (160 real
 * postings, 10 batches of 16) goes either into a table holding an earlier version of half of them (40
 * unchanged, 40 changed, 80 new) or into an empty DATA_DIR (so index creation can be cut too). Each
 * kill falls when the table reaches a random version (an event of the load, not a moment on a busy
 * clock): half among the batches' commits, half among the versions the load writes as it finishes
 * (compaction, index builds), as counted in an uninterrupted run of each kind. After each kill the
 * table must open and hold, per batch, all old or all new rows — complete and equal to a clean load's
 * — and the same command run again must complete the load exactly.
 */
/** Each of the four kinds of kill (into the old table or an empty one; among the batches or while finishing) twice. */
const TRIALS = 8;
const POSTINGS = 160;
const BATCH = 16;
const SEED = 20261122;

interface StoredRow { id: string; content_hash: string; result_json: string; vector: number[] }

let embedder: Embedder;
let work: string;
let newFile: string;
let newIds: string[];
/** Rows a clean load of the old / new file gives, by id. */
let oldRows: Map<string, StoredRow>;
let newRows: Map<string, StoredRow>;
let template: string;
/** The table versions an uninterrupted run wrote: its first and last batch's commits, and its last. */
interface Versions { firstBatch: number; lastBatch: number; end: number }
const runs: Record<"old" | "empty", Versions> = {} as never;

beforeAll(async () => {
  embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  work = tempDir("jobsearch-kill-");
  const records = (await sharedRecords()).slice(0, POSTINGS).map((r) => r.value as Record<string, unknown>);
  const earlier = records.slice(0, POSTINGS / 2).map((r, i) => (i < POSTINGS / 4 ? r : { ...r, job_description: `${r.job_description} (earlier version)` }));
  const oldFile = join(work, "old.jsonl");
  newFile = join(work, "new.jsonl");
  await Bun.write(oldFile, earlier.map((r) => JSON.stringify(r)).join("\n"));
  await Bun.write(newFile, records.map((r) => JSON.stringify(r)).join("\n"));
  newIds = records.map((r) => String(r.id));

  template = join(work, "template");
  oldRows = await load(template, oldFile);

  // Uninterrupted runs count the versions the kills are spread over. The CLI's into an empty DATA_DIR is
  // the clean load every other state is held to (each re-run below is in process: the two must agree);
  // the same load into the old table, by the function the CLI runs, in process, must equal it too.
  const empty = await countedRun(freshCopy("full-empty", false), async (dir) => expect(await ingestProcess(dir).exited).toBe(0));
  newRows = empty.rows;
  runs.empty = empty.versions(new Map());
  const old = await countedRun(freshCopy("full-old", true), (dir) => load(dir, newFile));
  expectExactly([...old.rows.values()], newRows);
  runs.old = old.versions(oldRows);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

test(`${TRIALS} SIGKILLs during a load leave whole batches, and the re-run completes the load`, async () => {
  const random = seededRandom(SEED);
  const seen = { "before the first commit": 0, "between batches": 0, "finishing (compaction, indexes, term stats)": 0, "after it had finished": 0 };
  for (let trial = 0; trial < TRIALS; trial++) {
    const fromEmpty = trial % 2 === 1;
    const dir = freshCopy(`trial-${trial}`, !fromEmpty);
    const before = fromEmpty ? new Map<string, StoredRow>() : oldRows;
    const { firstBatch, lastBatch, end } = runs[fromEmpty ? "empty" : "old"];
    const [from, to] = trial % 4 < 2 ? [firstBatch, lastBatch - 1] : [lastBatch, Math.max(lastBatch, end - 1)];
    const target = from + Math.floor((to - from + 1) * random());
    const proc = ingestProcess(dir);
    await until(() => latestTableVersion(dir), (version) => version >= target || proc.exitCode !== null, 5);
    proc.kill("SIGKILL");
    const code = await proc.exited;

    const rows = await readRows(dir);
    const committed = expectWholeBatches(rows, before);
    const pending = existsSync(join(dir, "load-pending"));
    if (code === 0) expect(pending).toBe(false);
    const moment =
      committed === 0 && !pending ? "before the first commit"
      : committed < changedBatches(before) ? "between batches"
      : pending ? "finishing (compaction, indexes, term stats)"
      : "after it had finished";
    seen[moment]++;

    // The same load again, in process this time: finishes whatever the kill left.
    const summary = await reload(dir);
    expect(summary.inserted + summary.updated + summary.unchanged).toBe(newIds.length);
    expectExactly(await readRows(dir), newRows);
    expect(existsSync(join(dir, "load-pending"))).toBe(false);
    const stats = JSON.parse(readFileSync(join(dir, "term-stats.json"), "utf8")) as { docs: number };
    expect(stats.docs).toBe(newIds.length);
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`SIGKILL trials: ${JSON.stringify(seen)}; uninterrupted runs (table versions): ${JSON.stringify(runs)}`);
  expect(seen["between batches"]).toBeGreaterThanOrEqual(3);
  expect(seen["finishing (compaction, indexes, term stats)"]).toBeGreaterThanOrEqual(1);
}, 600_000);

// --- helpers ---

/**
 * Runs the load to the end with `run`: the rows it left, and the table versions it wrote (its batches'
 * commits once the table it went into, holding `before`, says how many batches change something).
 */
async function countedRun(dir: string, run: (dir: string) => Promise<unknown>) {
  const start = latestTableVersion(dir);
  // From an empty DATA_DIR the first version is the empty table's creation.
  const firstBatch = start === 0 ? 2 : start + 1;
  await run(dir);
  const rows = new Map((await readRows(dir)).map((row) => [row.id, row]));
  const end = latestTableVersion(dir);
  const versions = (before: Map<string, StoredRow>): Versions => ({ firstBatch, lastBatch: firstBatch + changedBatches(before) - 1, end });
  return { rows, versions };
}

function ingestProcess(dataDir: string) {
  return Bun.spawn(["bun", join(ROOT, "cli/main.ts"), "ingest", newFile, "--batch-size", String(BATCH)], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, MODELS_DIR, NO_COLOR: "1" },
    stdout: "ignore",
    stderr: "ignore",
  });
}

function freshCopy(name: string, withOld: boolean): string {
  const dir = join(work, name);
  if (withOld) cpSync(template, dir, { recursive: true });
  return dir;
}

async function load(dir: string, file: string): Promise<Map<string, StoredRow>> {
  const store = await openStore({ dataDir: dir, modelId: embedder.modelId, dimension: embedder.dimension });
  try {
    await ingestFile({ store, embedder }, file, { batchSize: BATCH });
  } finally {
    store.close();
  }
  return readRows(dir).then((rows) => new Map(rows.map((row) => [row.id, row])));
}

async function reload(dir: string) {
  const store = await openStore({ dataDir: dir, modelId: embedder.modelId, dimension: embedder.dimension });
  try {
    const summary = await ingestFile({ store, embedder }, newFile, { batchSize: BATCH });
    expect((await store.table.listIndices()).length).toBe(14);
    return summary;
  } finally {
    store.close();
  }
}

/** Every row of the table of `dir`, opened as the server opens it. */
async function readRows(dir: string): Promise<StoredRow[]> {
  const store = await openStore({ dataDir: dir, modelId: embedder.modelId, dimension: embedder.dimension });
  try {
    const rows = await store.table.query().select(["id", "content_hash", "result_json", "vector"]).toArray();
    return rows.map((row) => ({ id: row.id, content_hash: row.content_hash, result_json: row.result_json, vector: Array.from(row.vector.toArray() as Float32Array) }));
  } finally {
    store.close();
  }
}

/** Rows of the batches (in file order) that change something in a table holding `before`. */
function changedBatches(before: Map<string, StoredRow>): number {
  const batches = new Set<number>();
  newIds.forEach((id, i) => {
    if (before.get(id)?.content_hash !== newRows.get(id)!.content_hash) batches.add(Math.floor(i / BATCH));
  });
  return batches.size;
}

/**
 * Checks that `rows` are complete and unique, each equal to its old or its new version, and that
 * the new versions are exactly those of the first k batches with changes; returns k.
 */
function expectWholeBatches(rows: StoredRow[], before: Map<string, StoredRow>): number {
  const ids = rows.map((row) => row.id);
  expect(new Set(ids).size).toBe(ids.length);
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of before.keys()) expect(byId.has(id)).toBe(true);
  const state = new Map<number, Set<"old" | "new">>();
  newIds.forEach((id, i) => {
    const old = before.get(id);
    const fresh = newRows.get(id)!;
    if (old?.content_hash === fresh.content_hash) return expectSameRow(byId.get(id), fresh);
    const row = byId.get(id);
    const which = row === undefined || row.content_hash === old?.content_hash ? "old" : "new";
    expectSameRow(row, which === "old" ? old : fresh);
    const batch = Math.floor(i / BATCH);
    state.set(batch, (state.get(batch) ?? new Set()).add(which));
  });
  const order = [...state.keys()].sort((a, b) => a - b).map((batch) => [...state.get(batch)!]);
  for (const kinds of order) expect(kinds.length).toBe(1); // no batch half written
  const committed = order.findIndex((kinds) => kinds[0] === "old");
  const k = committed === -1 ? order.length : committed;
  expect(order.slice(k).every((kinds) => kinds[0] === "old")).toBe(true); // batches commit in order
  expect(rows.length).toBe(before.size + newIds.filter((id, i) => !before.has(id) && Math.floor(i / BATCH) < batchNumber(order, k)).length);
  return k;

  function batchNumber(_order: unknown, committedBatches: number): number {
    return [...state.keys()].sort((a, b) => a - b)[committedBatches] ?? Infinity;
  }
}

function expectSameRow(row: StoredRow | undefined, expected: StoredRow | undefined): void {
  expect(row === undefined).toBe(expected === undefined);
  if (!row || !expected) return;
  expect(row.content_hash).toBe(expected.content_hash);
  expect(withoutCluster(row.result_json)).toBe(withoutCluster(expected.result_json));
  expect(row.vector.length).toBe(expected.vector.length);
  let worst = 0;
  row.vector.forEach((value, i) => (worst = Math.max(worst, Math.abs(value - expected.vector[i]!))));
  expect(worst).toBeLessThan(1e-5);
}

/**
 * result_json but the posting's cluster: which cluster a posting joins depends on what the table held
 * before (the earlier versions here), which the reference load had not; the clusters' tests check it.
 */
function withoutCluster(json: string): string {
  const { cluster_id: _, ...fields } = JSON.parse(json) as Record<string, unknown>;
  return JSON.stringify(fields);
}

function expectExactly(rows: StoredRow[], expected: Map<string, StoredRow>): void {
  expect(rows.length).toBe(expected.size);
  expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  for (const row of rows) expectSameRow(row, expected.get(row.id));
}
