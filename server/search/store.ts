import { existsSync } from "node:fs";
import * as lancedb from "@lancedb/lancedb";
import type { Table as ArrowTable } from "apache-arrow";

import type { SearchFilters } from "../../shared/search.ts";
import { buildWhere, idIn } from "./filter.ts";
import { bytesUnder, isObjectStore, prepareLocation, sideFile, type TableLocation } from "./location.ts";
import { TERM_STATS_FILE, termStatsReader, writeTermStats, type TermStats } from "./term-stats.ts";
import { rowTerms, type RankingTerms, type RowTerms } from "./ranking.ts";
import type { JobResult } from "../../shared/job.ts";
import { CANDIDATE_COLUMNS, DIMENSION_KEY, MODEL_KEY, TABLE_NAME, jobsSchema, type StoredJob } from "./schema.ts";
import { dot } from "./vector.ts";
import { LruCache } from "./lru.ts";

export interface StoreOptions {
  /** The folder or object-store URI (`s3://bucket/path`) holding the table (config `table.uri`). */
  dataDir: string;
  /** Object-store settings for LanceDB (config `table.storageOptions`). */
  storageOptions?: Record<string, string>;
  modelId: string;
  dimension: number;
  /** How often reads look for other processes' writes, in ms; undefined = never. */
  readConsistencyMs?: number;
}

/** A posting as a search reads it: id and result fields (the description only for full detail). */
export type JobRow = { id: string } & Omit<JobResult, "score" | "bm25_rank" | "vector_rank" | "fused_score">;

/** A candidate as ranking reads it: shared between searches, so never modified. */
export type CandidateRow = Readonly<JobRow & { vector: Float32Array; terms: RowTerms }>;

/** What the keyword retriever looks for: the query's words, weighted extra words, CJK pairs. */
export interface KeywordQuery {
  text: string;
  expansions: Array<{ text: string; weight: number }>;
  cjk: string[];
}

/** Title words count this many times a description word in BM25. */
export const TITLE_BOOST = 3;

export interface Facets {
  /** Distinct cities, sorted. */
  cities: string[];
  /** Postings per city, most first (ties by name), each with the country most of its postings name. */
  cityCounts: Array<{ city: string; country: string | null; postings: number }>;
  sources: string[];
}

export interface VectorIndexState {
  indexedRows: number;
  unindexedRows: number;
  /** 1 after a build; each later load's optimize() adds a segment that searches visit separately. */
  segments: number;
}

/** What `stats` reports of the table: counts, model, indexes, version and size. */
export interface StoreStats {
  postings: number;
  bySource: Array<{ source: string; postings: number }>;
  /** Most first; null = postings without a country. */
  byCountry: Array<{ country: string | null; postings: number }>;
  /** YYYY-MM of publish_time, oldest first. */
  byMonth: Array<{ month: string; postings: number }>;
  /** The embedding model the table was built with (schema metadata). */
  model: { id: string | null; dimension: number | null };
  indexes: IndexState[];
  version: number;
  /** The table's folder on disk, or its URI in the object store. */
  path: string;
  /** Bytes of every file or object in it (data, indexes, manifests, old versions not yet cleaned up). */
  diskBytes: number;
}

export interface IndexState {
  name: string;
  /** vector: the ANN index; fts: full-text (BM25); scalar: filter indexes (btree, bitmap). */
  kind: "vector" | "fts" | "scalar";
  /** LanceDB's index type as its statistics name it, e.g. IVF_HNSW_SQ, FTS, BTREE, BITMAP. */
  type: string;
  /** The type as `listIndices()` names it, e.g. IvfHnswSq, Bitmap (the metrics label). */
  listedType: string;
  columns: string[];
  indexedRows: number;
  /** Rows added since the index was last brought up to date (searched without it). */
  unindexedRows: number;
}

export interface JobStore {
  readonly table: lancedb.Table;
  /** Where the table lives (its folder or object-store URI). */
  readonly location: TableLocation;
  /** Moves to the latest version now, for a write another process just committed. */
  refresh(): Promise<void>;
  count(): Promise<number>;
  /** The table version searches currently read; every write makes a new one. */
  version(): Promise<number>;
  /** content_hash of those of `ids` that are stored. */
  existingHashes(ids: string[]): Promise<Map<string, string>>;
  /** Inserts new postings and replaces stored ones with the same id. */
  upsert(rows: StoredJob[]): Promise<void>;
  /** After a load: compacts fragments, brings the scalar and full-text indexes up to date, recounts term statistics. */
  finishLoad(): Promise<void>;
  /**
   * Whether a load wrote rows but did not finish (it was killed before or during finishLoad):
   * the next load then finishes it even when it has nothing left to write.
   */
  loadPending(): Promise<boolean>;
  /** How many postings use each word (for weighting query words); undefined before the first load. */
  termStats(): TermStats | undefined;
  /** The `limit` nearest postings among those matching `filters` (prefiltered), with cosine distance. */
  nearest(vector: Float32Array, filters: SearchFilters, limit: number, full: boolean): Promise<Array<{ row: CandidateRow; distance: number }>>;
  /** The `limit` best keyword (BM25) matches among those matching `filters`, with their score. */
  keyword(query: KeywordQuery, filters: SearchFilters, limit: number, full: boolean): Promise<Array<{ row: CandidateRow; score: number }>>;
  /** Distinct cities and sources present, recomputed only when the table changed. */
  facets(): Promise<Facets>;
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
  close(): void;
}

/**
 * Opens (creating when missing) the `jobs` table in `dataDir`. Fails with a clear message when
 * the table was built with another embedding model or dimension.
 */
export async function openStore(options: StoreOptions): Promise<JobStore> {
  const location = locationOf(options);
  prepareLocation(location);
  const db = await connect(location, options.readConsistencyMs);
  const table =
    (await openIfExists(db)) ??
    (await db.createEmptyTable(TABLE_NAME, jobsSchema(options.modelId, options.dimension), { mode: "create", existOk: true }));
  await checkModel(table, options);
  return createStore(db, table, location);
}

/**
 * Opens the `jobs` table of `dataDir` whichever model built it, to look at it (`stats`) without
 * loading an embedder; creates nothing. Undefined when there is no table yet.
 */
export async function inspectStore(location: TableLocation): Promise<JobStore | undefined> {
  if (!isObjectStore(location.uri) && !existsSync(location.uri)) return undefined;
  const db = await connect(location);
  const table = await openIfExists(db);
  if (!table) {
    db.close();
    return undefined;
  }
  return createStore(db, table, location);
}

// --- internal ---

function locationOf(options: StoreOptions): TableLocation {
  return { uri: options.dataDir, ...(options.storageOptions ? { storageOptions: options.storageOptions } : {}) };
}

function connect(location: TableLocation, readConsistencyMs?: number): Promise<lancedb.Connection> {
  return lancedb.connect(location.uri, {
    readConsistencyInterval: readConsistencyMs === undefined ? undefined : readConsistencyMs / 1000,
    ...(location.storageOptions ? { storageOptions: location.storageOptions } : {}),
  });
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
  const storedModel = metadata.get(MODEL_KEY);
  const storedDimension = Number(metadata.get(DIMENSION_KEY));
  if (storedModel === options.modelId && storedDimension === options.dimension) return;
  throw new Error(
    `the jobs table in ${options.dataDir} was built with embedding model "${storedModel}" (dimension ${storedDimension}), ` +
      `but EMBEDDING_MODEL gives "${options.modelId}" (dimension ${options.dimension}). ` +
      `Set EMBEDDING_MODEL back, or re-ingest into an empty DATA_DIR with the new model.`,
  );
}

async function createStore(db: lancedb.Connection, table: lancedb.Table, location: TableLocation): Promise<JobStore> {
  const termStats = termStatsReader(sideFile(location, TERM_STATS_FILE));
  const pending = sideFile(location, LOAD_PENDING_FILE);
  // Missing or unreadable statistics only make ranking weigh words equally until the next look.
  await termStats.refresh().catch(() => {});
  const decoded = new LruCache<string, CandidateRow>(POSTING_CACHE_SIZE);
  let facetCache: { version: number; facets: Facets } | undefined;
  let indexCache: { version: number; indexed: boolean } | undefined;
  let indexStateCache: { version: number; state: VectorIndexState | undefined } | undefined;
  /** Whether the current version has a vector index (looked up once per version). */
  const hasVectorIndex = async () => {
    const version = await table.version();
    if (indexCache?.version !== version) {
      const indexed = (await table.listIndices()).some((index) => index.columns.includes("vector"));
      indexCache = { version, indexed };
    }
    return indexCache.indexed;
  };

  return {
    table,
    location,
    refresh: () => table.checkoutLatest(),
    count: () => table.countRows(),
    version: () => table.version(),

    async existingHashes(ids) {
      const found = new Map<string, string>();
      if (ids.length === 0) return found;
      const rows = await table
        .query()
        .where(idIn(ids))
        .select(["id", "content_hash"])
        .toArray();
      for (const row of rows) found.set(row.id, row.content_hash);
      return found;
    },

    async upsert(rows) {
      if (rows.length === 0) return;
      if ((await pending.tag()) === undefined) await pending.write("");
      // Idempotent (same ids, same rows), so safe to run again after a conflict.
      await retryConflicts(() => table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows.map(toArrowRow)));
    },

    async finishLoad() {
      await retryConflicts(() => table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) }));
      await ensureIndexes(table);
      termStats.set(await writeTermStats(table, sideFile(location, TERM_STATS_FILE)));
      await pending.remove();
    },

    loadPending: async () => (await pending.tag()) !== undefined,

    termStats: termStats.get,

    async nearest(vector, filters, limit, full) {
      // Every stored and query vector has unit length, so dot distance (1 − dot) is cosine distance, cheaper.
      // With the ANN index, 1.4× the candidates come from the quantized index and are re-ranked here by
      // exact distance on the vectors read with them (recall@50 0.993; LanceDB's own refine step, which
      // reads the vectors a second time, cost 50% more for 0.998). Deep pages stay exact (see ANN_MAX_LIMIT).
      const approximate = limit <= ANN_MAX_LIMIT && (await hasVectorIndex());
      const fetch = approximate ? Math.ceil(limit * ANN_OVERFETCH) : limit;
      let query = table.query().nearestTo(vector).distanceType("dot").select([...candidateColumns(full), "_distance"]).limit(fetch);
      query = approximate ? query.ef(fetch * 2) : query.bypassVectorIndex();
      const where = buildWhere(filters);
      if (where !== undefined) query = query.where(where);
      const rows = candidateRows(await query.toArrow(), full, decoded).map((row) => ({ row, distance: 1 - dot(vector, row.vector) }));
      return rows.sort((a, b) => a.distance - b.distance || (a.row.id < b.row.id ? -1 : 1)).slice(0, limit);
    },

    async keyword(spec, filters, limit, full) {
      // Each clause runs as its own query and scores add up, as SHOULD clauses do: a BooleanQuery
      // of the same clauses measured 5-6 times slower here.
      const where = buildWhere(filters);
      const lists = await Promise.all(
        keywordClauses(spec).map((clause) => {
          let query = table.query().fullTextSearch(clause).select([...candidateColumns(full), "_score"]).limit(limit);
          if (where !== undefined) query = query.where(where);
          return query.toArrow();
        }),
      );
      const merged = new Map<string, { row: CandidateRow; score: number }>();
      for (const batch of lists) {
        const scores = batch.getChild("_score")!;
        candidateRows(batch, full, decoded).forEach((row, i) => {
          const score = scores.get(i) as number;
          const known = merged.get(row.id);
          if (known) known.score += score;
          else merged.set(row.id, { row, score });
        });
      }
      return [...merged.values()].sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : 1)).slice(0, limit);
    },

    async facets() {
      const version = await table.version();
      if (facetCache?.version === version) return facetCache.facets;
      const rows = await table.query().select(["city", "country", "data_source"]).toArray();
      const byCity = new Map<string, { postings: number; countries: Map<string, number> }>();
      const sources = new Set<string>();
      for (const row of rows) {
        sources.add(row.data_source);
        if (!row.city) continue;
        const entry = byCity.get(row.city) ?? { postings: 0, countries: new Map<string, number>() };
        entry.postings++;
        if (row.country) entry.countries.set(row.country, (entry.countries.get(row.country) ?? 0) + 1);
        byCity.set(row.city, entry);
      }
      const cityCounts = [...byCity].map(([city, { postings, countries }]) => ({
        city,
        country: [...countries].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null,
        postings,
      }));
      cityCounts.sort((a, b) => b.postings - a.postings || (a.city < b.city ? -1 : 1));
      const facets = { cities: [...byCity.keys()].sort(), cityCounts, sources: [...sources].sort() };
      facetCache = { version, facets };
      return facets;
    },

    async ensureVectorIndex(minRows) {
      if ((await hasVectorIndex()) || (await table.countRows()) < minRows) return false;
      await createVectorIndex(table, false);
      return true;
    },

    async vectorIndexState() {
      // Looked up once per table version: LanceDB logs a warning with every indexStats() call.
      const version = await table.version();
      if (indexStateCache?.version !== version) {
        const stats = (await hasVectorIndex()) ? await table.indexStats(VECTOR_INDEX_NAME) : undefined;
        const state = stats && { indexedRows: stats.numIndexedRows, unindexedRows: stats.numUnindexedRows, segments: stats.numIndices ?? 1 };
        indexStateCache = { version, state };
      }
      return indexStateCache.state;
    },

    async rebuildVectorIndex() {
      await createVectorIndex(table, true);
    },

    async stats() {
      const rows = await table.query().select(["data_source", "country", "publish_time"]).toArray();
      const bySource = new Map<string, number>();
      const byCountry = new Map<string | null, number>();
      const byMonth = new Map<string, number>();
      for (const row of rows) {
        bySource.set(row.data_source, (bySource.get(row.data_source) ?? 0) + 1);
        byCountry.set(row.country ?? null, (byCountry.get(row.country ?? null) ?? 0) + 1);
        const month = String(row.publish_time).slice(0, 7);
        byMonth.set(month, (byMonth.get(month) ?? 0) + 1);
      }
      const mostFirst = <K extends string | null>(counts: Map<K, number>) =>
        [...counts].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])));
      const metadata = (await table.schema()).metadata;
      const dimension = Number(metadata.get(DIMENSION_KEY));
      const path = `${location.uri.replace(/\/+$/, "")}/${TABLE_NAME}.lance`;
      return {
        postings: rows.length,
        bySource: mostFirst(bySource).map(([source, postings]) => ({ source, postings })),
        byCountry: mostFirst(byCountry).map(([country, postings]) => ({ country, postings })),
        byMonth: [...byMonth].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([month, postings]) => ({ month, postings })),
        model: { id: metadata.get(MODEL_KEY) ?? null, dimension: Number.isFinite(dimension) ? dimension : null },
        indexes: await listIndexes(table),
        version: await table.version(),
        path,
        diskBytes: await bytesUnder(location, `${TABLE_NAME}.lance`),
      };
    },

    indexes: () => listIndexes(table),

    close() {
      table.close();
      db.close();
    },
  };
}

async function listIndexes(table: lancedb.Table): Promise<IndexState[]> {
  const indexes = await Promise.all(
    (await table.listIndices()).map(async (index): Promise<IndexState> => {
      const stats = await table.indexStats(index.name);
      return {
        name: index.name,
        kind: index.columns.includes("vector") ? "vector" : /fts|inverted/i.test(index.indexType) ? "fts" : "scalar",
        type: stats?.indexType ?? index.indexType,
        listedType: index.indexType,
        columns: index.columns,
        indexedRows: stats?.numIndexedRows ?? 0,
        unindexedRows: stats?.numUnindexedRows ?? 0,
      };
    }),
  );
  const kinds = ["vector", "fts", "scalar"];
  return indexes.sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind) || a.name.localeCompare(b.name));
}

/** Beside the table from a load's first write until its finishLoad completed. */
const LOAD_PENDING_FILE = "load-pending";

/** What a search reads of each candidate; each retriever reads it along with its matches. */
function candidateColumns(full: boolean): string[] {
  return full ? [...CANDIDATE_COLUMNS, "job_description"] : [...CANDIDATE_COLUMNS];
}

/**
 * The candidates of a query result, decoded. Decoding (JSON, term sets, vector copy) is the costliest
 * part of a search in JavaScript, so decoded postings are kept by content hash: the same hash is the
 * same content, so a kept posting is never stale, and a re-ingested one gets a new entry.
 */
function candidateRows(batch: ArrowTable, full: boolean, decoded: LruCache<string, CandidateRow>): CandidateRow[] {
  const hashes = batch.getChild("content_hash")!;
  const json = batch.getChild("result_json")!;
  const vectors = batch.getChild("vector")!;
  const descriptions = full ? batch.getChild("job_description") : null;
  const rows: CandidateRow[] = [];
  for (let i = 0; i < batch.numRows; i++) {
    const hash = hashes.get(i) as string;
    let row = decoded.get(hash);
    if (row === undefined) {
      const { rank_terms, cjk_text, ...fields } = JSON.parse(json.get(i) as string) as JobRow & RankingTerms;
      row = { ...fields, vector: Float32Array.from(vectors.get(i).toArray() as Float32Array), terms: rowTerms({ rank_terms, cjk_text }) };
      decoded.set(hash, row);
    }
    rows.push(descriptions ? { ...row, job_description: String(descriptions.get(i) ?? "") } : row);
  }
  return rows;
}

/** Decoded postings kept per process (~2–4 KB each). */
const POSTING_CACHE_SIZE = 20_000;

/**
 * Runs a table change again when another writer committed first (LanceDB's "Retryable commit
 * conflict"): an ingest's optimize() and the server's background index rebuild may meet.
 */
async function retryConflicts<T>(change: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await change();
    } catch (error) {
      if (attempt >= attempts || !(error instanceof Error && /retryable commit conflict/i.test(error.message))) throw error;
      await Bun.sleep(50 * attempt);
    }
  }
}

/** LanceDB's name for the index on the `vector` column. */
const VECTOR_INDEX_NAME = "vector_idx";

/** HNSW over scalar-quantized vectors, dot distance on unit vectors (best measured here; IVF_PQ lost recall). */
async function createVectorIndex(table: lancedb.Table, replace: boolean): Promise<void> {
  await retryConflicts(() => table.createIndex("vector", { config: lancedb.Index.hnswSq({ distanceType: "dot", numPartitions: 1 }), replace }));
}

/** Candidate lists longer than this skip the ANN index: it gains little there (ef must be ≥ the candidates). */
const ANN_MAX_LIMIT = 200;
/** The ANN index fetches this many times the candidates; the best by exact distance are kept. */
const ANN_OVERFETCH = 1.4;


const SCALAR_INDEXES: Array<[column: string, kind: "bitmap" | "btree"]> = [
  ["id", "btree"],
  ["city", "bitmap"],
  ["country", "bitmap"],
  ["data_source", "bitmap"],
  ["publish_ts", "btree"],
];
const TEXT_INDEXES = ["job_title", "job_description"];
/** CJK pairs are words already: split on spaces only, nothing to lowercase, stem or drop. */
const cjkIndex = () =>
  lancedb.Index.fts({
    baseTokenizer: "whitespace", lowercase: false, stem: false, removeStopWords: false, asciiFolding: false, withPosition: false,
  });

/** Creates missing indexes; optimize() has already folded new rows into existing ones. */
async function ensureIndexes(table: lancedb.Table): Promise<void> {
  if ((await table.countRows()) === 0) return;
  const existing = new Set((await table.listIndices()).flatMap((index) => index.columns));
  for (const [column, kind] of SCALAR_INDEXES) {
    if (existing.has(column)) continue;
    const config = kind === "bitmap" ? lancedb.Index.bitmap() : lancedb.Index.btree();
    await retryConflicts(() => table.createIndex(column, { config }));
  }
  for (const column of TEXT_INDEXES) {
    if (existing.has(column)) continue;
    await retryConflicts(() => table.createIndex(column, { config: lancedb.Index.fts({ withPosition: false }) }));
  }
  if (!existing.has("cjk_text")) await retryConflicts(() => table.createIndex("cjk_text", { config: cjkIndex() }));
}

/** The query as alternative clauses: own words in title (boosted) and description, extra words, CJK pairs. */
function keywordClauses(spec: KeywordQuery): lancedb.FullTextQuery[] {
  const clauses: lancedb.FullTextQuery[] = [];
  if (spec.text.trim() !== "") {
    clauses.push(new lancedb.MultiMatchQuery(spec.text, ["job_title", "job_description"], { boosts: [TITLE_BOOST, 1] }));
  }
  // Extra words only need to bring candidates in (ranking weighs them one by one): two clauses, not one per word.
  if (spec.expansions.length > 0) {
    const all = spec.expansions.map((e) => e.text).join(" ");
    clauses.push(new lancedb.MatchQuery(all, "job_title", { boost: TITLE_BOOST / 2 }));
    const strong = spec.expansions.filter((e) => e.weight >= 0.5).map((e) => e.text).join(" ");
    if (strong !== "") clauses.push(new lancedb.MatchQuery(strong, "job_description", { boost: 0.5 }));
  }
  if (spec.cjk.length > 0) clauses.push(new lancedb.MatchQuery(spec.cjk.join(" "), "cjk_text"));
  return clauses;
}

function toArrowRow(row: StoredJob): Record<string, unknown> {
  return { ...row, vector: Array.from(row.vector) };
}
