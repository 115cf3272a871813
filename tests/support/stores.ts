import { afterAll } from "bun:test";
import { cpSync, rmSync } from "node:fs";
import { openKeys } from "../../server/auth/stores.ts";
import { ingestRecords, type IngestOptions, type IngestSummary } from "../../server/ingest/ingest.ts";
import { readRecords, type RawRecord } from "../../server/ingest/read.ts";
import { openWriteLock } from "../../server/store/write-lease.ts";
import { openLocalStore } from "../../cli/local.ts";
import { SHARED_DATA, tempDir, testConfig } from "./helpers.ts";

/*
 * Real postings and loaded DATA_DIRs shared by the test files of a run (`bun test` runs them in one
 * process): the shared data is read once, a sample of it is loaded once, and each test file gets a
 * copy of the loaded folder of its own (a load of ~3,700 postings takes 7–10 s; a copy, a fraction
 * of a second). bunfig.toml preloads this file, so what it keeps is removed after the last file (and
 * what others keep for the run is closed: whenRunEnds); a file run without the preload removes it
 * after itself.
 */

export interface LoadedSample {
  /** The sample's postings (the records' values), in the shared file's order. */
  postings: Array<Record<string, any>>;
  /** What the load of the sample said. */
  summary: IngestSummary;
  /** A copy of the loaded DATA_DIR: the caller's own, to change and to remove. */
  dataDir: string;
}

afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  for (const dir of kept.splice(0)) rmSync(dir, { recursive: true, force: true });
  samples.clear();
});

/** Runs `close` once the run's last test file is done (the calling file, without the preload). */
export function whenRunEnds(close: () => unknown): void {
  closers.push(close);
}

/** The shared data's 29,513 records, read once a run; frozen, since every test file gets the same objects. */
export function sharedRecords(): Promise<readonly RawRecord[]> {
  records ??= readRecords(SHARED_DATA).then((all) => Object.freeze(all.map((record) => Object.freeze({ ...record, value: deepFreeze(record.value) }))));
  return records;
}

/**
 * Loads `values` into the table a server of `dataDir` with `env` serves (DATA_URI's with it), in this
 * process, as `cli ingest` does: the table opened by the CLI's own openLocalStore (the places index kept
 * with the model, not built again), the table's write lock (REDIS_URL's for an object store).
 */
export async function loadDataDir(dataDir: string, values: readonly object[], options: IngestOptions = {}, env: Record<string, string> = {}): Promise<IngestSummary> {
  const config = testConfig(dataDir, env);
  const { store, embedder } = await openLocalStore(config, () => {});
  const writes = await openWriteLock(config.table, config.redisUrl);
  try {
    return await ingestRecords({ store, embedder, lock: writes.lock }, values.map((value, i) => ({ ref: `record ${i + 1}`, value })), options);
  } finally {
    writes.close();
    store.close();
  }
}

/**
 * An API key in the key store a server of `dataDir` with `env` reads (Redis with REDIS_URL), made in
 * this process by the function `cli keys create` runs: for tests whose subject is not the CLI.
 */
export async function createApiKey(dataDir: string, name: string, env: Record<string, string> = {}, rateLimit?: number): Promise<string> {
  const keys = await openKeys(testConfig(dataDir, env));
  try {
    return (await keys.create(name, rateLimit)).key;
  } finally {
    keys.close();
  }
}

/** A new temp DATA_DIR holding a copy of the loaded `dataDir`. */
export function copyDataDir(dataDir: string): string {
  const copy = tempDir();
  cpSync(dataDir, copy, { recursive: true });
  return copy;
}

/** Every `step`-th posting of the shared data, loaded into a DATA_DIR once a run; see LoadedSample. */
export async function loadedSample(step: number): Promise<LoadedSample> {
  let sample = samples.get(step);
  if (sample === undefined) {
    sample = (async () => {
      const postings = (await sharedRecords()).filter((_, i) => i % step === 0).map((record) => record.value as Record<string, any>);
      const dataDir = tempDir("jobsearch-sample-");
      kept.push(dataDir);
      return { postings, summary: await loadDataDir(dataDir, postings), dataDir };
    })();
    samples.set(step, sample);
  }
  const { postings, summary, dataDir } = await sample;
  return { postings, summary, dataDir: copyDataDir(dataDir) };
}

// --- internal ---

let records: Promise<readonly RawRecord[]> | undefined;
/** Each sample loaded, by step: its `dataDir` is the folder kept for the run, copied for each caller. */
const samples = new Map<number, Promise<LoadedSample>>();
/** Folders this file made for the whole run. */
const kept: string[] = [];
const closers: Array<() => unknown> = [];

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}
