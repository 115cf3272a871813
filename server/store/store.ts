import type { JobResult, Posting } from "../../shared/job.ts";
import type { FilterValues } from "../../shared/search.ts";
import type { FilterSet } from "./filter-set.ts";
import { existsSync } from "node:fs";
import * as lancedb from "@lancedb/lancedb";
import type { RowTerms } from "../text/rank-terms.ts";
import type { ClusterFactsLookup, readUnclustered, SameJobPosting, StoredCluster } from "./clusters.ts";
import { createAdmin, vectorIndexPresence, type IndexState, type StoreStats, type VectorIndexState } from "./indexes.ts";
import { createReader } from "./read.ts";
import { TEXT_FORMAT } from "../text/fold.ts";
import { DIMENSION_KEY, MODEL_KEY, TABLE_NAME, TEXT_FORMAT_KEY, jobsSchema, type StoredJob } from "./schema.ts";
import { connectTable, isObjectStore, prepareLocation, sideFile, type TableLocation } from "./table-location.ts";
import { TERM_STATS_FILE, termStatsReader, type TermStats } from "./term-stats.ts";
import { createWriter } from "./write.ts";

/*
 * The jobs table: opened here, read by searches (read.ts), written by loads (write.ts), its indexes
 * and statistics kept by indexes.ts. JobStore is the three views together; each caller needs one.
 */

export interface StoreOptions {
  /** The folder or object-store URI (`s3://bucket/path`) holding the table (config `table.uri`). */
  dataDir: string;
  /** Object-store settings for LanceDB (config `table.storageOptions`). */
  storageOptions?: Record<string, string>;
  modelId: string;
  dimension: number;
  /** How often reads look for other processes' writes, in ms; undefined = never. */
  readConsistencyMs?: number;
  /** The in-memory copy of the table's current version, which answers searches faster (server/memory/); absent = LanceDB answers all. */
  memoryCopy?: (table: lancedb.Table) => MemoryCopyHolder;
}

/**
 * What holds the in-memory copy of the table's current version (server/memory/): searches use the
 * copy while it holds the version they read, and LanceDB otherwise. The store knows it by this shape only.
 */
export interface MemoryCopyHolder {
  /** The copy of `version` when held; otherwise undefined, and bringing the copy up to date starts. */
  at(version: number): MemoryCopy | undefined;
  /** Settles when the current version is held (or will not be). */
  warm(): Promise<void>;
  state(): MemoryCopyState;
  /** Starts no more builds and waits for the one under way: the table may then be closed. */
  stop(): Promise<void>;
}

/** The in-memory copy of one table version: StoreReader's nearest and keyword, without descriptions. */
export interface MemoryCopy {
  version: number;
  postings: number;
  /** Bytes held (vectors, keyword index, text, kept filter rows), estimated. */
  bytes: number;
  nearest(vector: Float32Array, filters: FilterSet, limit: number, checkpoint?: Checkpoint): Promise<Array<{ row: CandidateRow; cosine: number }>>;
  keyword(clauses: KeywordClause[], filters: FilterSet, limit: number, checkpoint?: Checkpoint): Promise<Array<{ row: CandidateRow; score: number }>>;
}

/**
 * Called after each LanceDB answer and every 128 candidates decoded, and awaited: throws to stop a
 * search past its deadline, and may wait (the search offers its turn there: decoding a deep page's
 * postings the first time is long work).
 */
export type Checkpoint = () => void | Promise<void>;

/** What the copy holds: the version and its size, why nothing is held, or undefined while it builds. */
export type MemoryCopyState = { version: number; postings: number; bytes: number } | { skipped: string } | undefined;

/** A posting as a search reads it: id, result fields and country (the description only for full detail). */
export type JobRow = { id: string; country?: string | null; cluster_id?: string } &
  Omit<JobResult, "score" | "bm25_rank" | "vector_rank" | "fused_score" | "cluster_id" | "first_seen" | "last_seen" | "times_posted">;

/** A candidate as ranking reads it: shared between searches, so never modified. */
export type CandidateRow = Readonly<JobRow & { vector: Float32Array; terms: RowTerms }>;

/** A keyword (BM25) clause (rank/keyword-query.ts): its text in each column with a boost; a row scores its best column, and clauses' scores add up. */
export interface KeywordClause {
  text: string;
  fields: Array<{ column: "job_title" | "job_description" | "cjk_text"; boost: number }>;
}

export interface Facets {
  cities: string[]; // distinct, sorted
  /** Postings per city, most first (ties by name), each with the country most of its postings name. */
  cityCounts: Array<{ city: string; country: string | null; postings: number }>;
  /** Cities the gazetteer placed at load (their postings have coordinates): real places, not other text in the city field. */
  located: Set<string>;
  sources: string[];
  /** Postings per company name, most first (ties by name). */
  companies: Array<{ name: string; postings: number }>;
}


/** What searches read. */
export interface StoreReader {
  /** Moves to the latest version and its term statistics now, for a write another process just committed. */
  refresh(): Promise<void>;
  count(): Promise<number>;
  /** The table version searches currently read; every write makes a new one. */
  version(): Promise<number>;
  /**
   * A reader pinned to the version current now: a request reads through one, so its page, facets
   * and totals come from one version (versionViews). A view's view() is itself.
   */
  view(): Promise<StoreReader>;
  /** Settles when searches are answered from memory (or will not be: the table is larger than the bound). */
  warm(): Promise<void>;
  /** The in-memory copy's version and size, why it is off, or undefined while it builds. */
  memoryCopy(): MemoryCopyState;
  /** How many postings use each word (for weighting query words); undefined before the first load. */
  termStats(): TermStats | undefined;
  /** The `limit` nearest postings the normalised filters (filter-set.ts) admit, most similar first (ties by id, cut.ts), with their cosine. */
  nearest(vector: Float32Array, filters: FilterSet, limit: number, checkpoint?: Checkpoint): Promise<Array<{ row: CandidateRow; cosine: number }>>;
  /** The `limit` best keyword (BM25) matches among those the filters admit (ordered and cut as `nearest`), with their score. */
  keyword(clauses: KeywordClause[], filters: FilterSet, limit: number, checkpoint?: Checkpoint): Promise<Array<{ row: CandidateRow; score: number }>>;
  /** Distinct cities and sources present, recomputed only when the table changed. */
  facets(): Promise<Facets>;
  /** The description of each stored posting of `ids` (one query): what a full-detail page shows, read for the page alone. */
  descriptions(ids: string[]): Promise<Map<string, string>>;
  /** One posting and its vector by id; undefined when none has it. */
  posting(id: string): Promise<{ posting: Posting; vector: Float32Array; clusterId: string } | undefined>;
  /** The country of each stored posting of `ids`. */
  countries(ids: string[]): Promise<Map<string, string | null>>;
  /** Each filter's values with their postings over the whole table (the 100 most used tags); tagCounts: every tag. Recomputed when the table changed. */
  filterValues(): Promise<FilterValues>;
  tagCounts(): Promise<Array<{ value: string; count: number }>>;
  /** Each cluster's first/last seen and times posted (store/clusters.ts; undefined: a table loaded before clusters); a cluster's postings but one. */
  clusterFacts(): Promise<ClusterFactsLookup | undefined>;
  sameJob(clusterId: string, exceptId: string): Promise<SameJobPosting[]>;
}

/** What loads write (under the write lease, see write-lease.ts). */
export interface StoreWriter {
  /** content_hash of those of `ids` that are stored. */
  existingHashes(ids: string[]): Promise<Map<string, string>>;
  /** Inserts new postings and replaces stored ones with the same id. */
  upsert(rows: StoredJob[]): Promise<void>;
  /** The ids of the postings `where` (a predicate of store/filter.ts) selects. */
  idsWhere(where: string): Promise<string[]>;
  /** Deletes the postings `where` selects, in one commit; returns how many there were. */
  remove(where: string): Promise<number>;
  /** Upserts `rows` and deletes the postings of `removeIds`, all in one commit (readers see all of it or none). */
  replace(rows: StoredJob[], removeIds: string[]): Promise<void>;
  /** After a load: compacts fragments, brings the scalar and full-text indexes up to date, recounts term statistics. */
  finishLoad(): Promise<void>;
  /**
   * Whether a load wrote rows but did not finish (it was killed before or during finishLoad):
   * the next load then finishes it even when it has nothing left to write.
   */
  loadPending(): Promise<boolean>;
  /** Postings' cluster columns in assignment order (undefined: a table loaded before clusters, which addClusterColumns migrates). */
  storedClusters(): Promise<StoredCluster[] | undefined>;
  addClusterColumns(): Promise<Awaited<ReturnType<typeof readUnclustered>>>;
  updateClusters(rows: Array<StoredCluster & { result_json: string }>): Promise<void>;
}

/** The ANN index and what `stats`, /readyz and /metrics report. */
export interface StoreAdmin {
  /**
   * Builds the ANN index on the vectors when the table has at least `minRows` postings and none yet.
   * Searches go on meanwhile (they use the previous version). Returns whether it built one.
   */
  ensureVectorIndex(minRows: number): Promise<boolean>;
  /** The ANN index's coverage: rows in it, rows not yet in it, and how many segments loads have added. */
  vectorIndexState(): Promise<VectorIndexState | undefined>;
  /** Builds the ANN index anew over every row (one segment); searches use the old one meanwhile. */
  rebuildVectorIndex(): Promise<void>;
  /** Postings by source, country and month, the model, the indexes, version and size on disk (reads every row's three columns). */
  stats(): Promise<StoreStats>;
  /** Every index with its coverage: vector first, then full-text, then scalar, each by name. */
  indexes(): Promise<IndexState[]>;
}

export interface JobStore extends StoreReader, StoreWriter, StoreAdmin {
  readonly table: lancedb.Table;
  /** Where the table lives (its folder or object-store URI). */
  readonly location: TableLocation;
  /** Stops the background work on the table (the in-memory copy's builds) and waits for it: call before close. */
  settle(): Promise<void>;
  close(): void;
}

/**
 * Opens (creating when missing) the `jobs` table in `dataDir`. Fails with a clear message when
 * the table was built with another embedding model or dimension.
 */
export async function openStore(options: StoreOptions | OpeningOptions): Promise<JobStore> {
  const location = locationOf(options);
  prepareLocation(location);
  const db = await connectTable(location, options.readConsistencyMs);
  const existing = await openIfExists(db);
  const model = "model" in options ? await options.model : options;
  const table = existing ?? (await db.createEmptyTable(TABLE_NAME, jobsSchema(model.modelId, model.dimension), { mode: "create", existOk: true }));
  await checkModel(table, { ...options, ...model });
  return createStore(db, table, location, options.memoryCopy?.(table));
}

/** Options of a store opened while its embedding model still loads: the table opens meanwhile (server start). */
export type OpeningOptions = Omit<StoreOptions, "modelId" | "dimension"> & { model: Promise<{ modelId: string; dimension: number }> };

/**
 * Opens the `jobs` table of `dataDir` whichever model built it, to look at it (`stats`) without
 * loading an embedder; creates nothing. Undefined when there is no table yet.
 */
export async function inspectStore(location: TableLocation): Promise<JobStore | undefined> {
  if (!isObjectStore(location.uri) && !existsSync(location.uri)) return undefined;
  const db = await connectTable(location);
  const table = await openIfExists(db);
  if (!table) {
    db.close();
    return undefined;
  }
  return createStore(db, table, location);
}

// --- internal ---
function locationOf(options: StoreOptions | OpeningOptions): TableLocation {
  return { uri: options.dataDir, ...(options.storageOptions ? { storageOptions: options.storageOptions } : {}) };
}

/** Opens the table when it exists. Not tableNames(): listing needs more of an object store than opening. */
async function openIfExists(db: lancedb.Connection): Promise<lancedb.Table | undefined> {
  try {
    return await db.openTable(TABLE_NAME);
  } catch (error) {
    if (/not found|does not exist/i.test(error instanceof Error ? error.message : String(error))) return undefined;
    throw error;
  }
}

async function checkModel(table: lancedb.Table, options: StoreOptions): Promise<void> {
  const schema = await table.schema();
  if (!schema.fields.some((field) => field.name === "result_json")) {
    throw new Error(`the jobs table in ${options.dataDir} predates the columns hybrid ranking reads; re-ingest into an empty DATA_DIR`);
  }
  const metadata = schema.metadata;
  const format = metadata.get(TEXT_FORMAT_KEY);
  if (format !== TEXT_FORMAT) {
    throw new Error(
      `the jobs table in ${options.dataDir} holds ranking terms of text format "${format ?? "text-1"}", this version reads "${TEXT_FORMAT}": ` +
        `load the postings again into an empty DATA_DIR (bun run cli ingest FILE), then point the server at it`,
    );
  }
  const storedModel = metadata.get(MODEL_KEY);
  const storedDimension = Number(metadata.get(DIMENSION_KEY));
  if (storedModel === options.modelId && storedDimension === options.dimension) return;
  throw new Error(
    `the jobs table in ${options.dataDir} was built with embedding model "${storedModel}" (dimension ${storedDimension}), ` +
      `but EMBEDDING_MODEL gives "${options.modelId}" (dimension ${options.dimension}). ` +
      `Set EMBEDDING_MODEL back, or re-ingest into an empty DATA_DIR with the new model.`,
  );
}

async function createStore(db: lancedb.Connection, table: lancedb.Table, location: TableLocation, copies?: MemoryCopyHolder): Promise<JobStore> {
  const termStats = termStatsReader(sideFile(location, TERM_STATS_FILE));
  // Missing or unreadable statistics only make ranking weigh words equally until the next look.
  await termStats.refresh().catch(() => {});
  const vectorIndex = vectorIndexPresence(table);
  return {
    table,
    location,
    ...createReader(table, termStats, vectorIndex, copies, async (version) => {
      const pinned = await db.openTable(TABLE_NAME);
      await pinned.checkout(version);
      return pinned;
    }),
    ...createWriter(table, location, termStats),
    ...createAdmin(table, location, vectorIndex),
    settle: async () => copies?.stop(),
    close() {
      table.close();
      db.close();
    },
  };
}
