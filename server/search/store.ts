import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import type { Table as ArrowTable } from "apache-arrow";

import type { SearchFilters } from "../../shared/search.ts";
import { buildWhere, idIn } from "./filter.ts";
import { termStatsReader, writeTermStats, type TermStats } from "./term-stats.ts";
import { rowTerms, type RankingTerms, type RowTerms } from "./ranking.ts";
import type { JobResult } from "../../shared/job.ts";
import { CANDIDATE_COLUMNS, DIMENSION_KEY, MODEL_KEY, TABLE_NAME, jobsSchema, type StoredJob } from "./schema.ts";

export interface StoreOptions {
  dataDir: string;
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
  /** The table's folder on disk. */
  path: string;
  /** Bytes of every file in that folder (data, indexes, manifests, old versions not yet cleaned up). */
  diskBytes: number;
}

export interface IndexState {
  name: string;
  /** vector: the ANN index; fts: full-text (BM25); scalar: filter indexes (btree, bitmap). */
  kind: "vector" | "fts" | "scalar";
  /** LanceDB's index type, e.g. IVF_HNSW_SQ, FTS, BTREE, BITMAP. */
  type: string;
  columns: string[];
  indexedRows: number;
  /** Rows added since the index was last brought up to date (searched without it). */
  unindexedRows: number;
}

export interface JobStore {
  readonly table: lancedb.Table;
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
  loadPending(): boolean;
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
  close(): void;
}

/**
 * Opens (creating when missing) the `jobs` table in `dataDir`. Fails with a clear message when
 * the table was built with another embedding model or dimension.
 */
export async function openStore(options: StoreOptions): Promise<JobStore> {
  mkdirSync(options.dataDir, { recursive: true });
  const db = await connect(options.dataDir, options.readConsistencyMs);
  const table = (await db.tableNames()).includes(TABLE_NAME)
    ? await db.openTable(TABLE_NAME)
    : await db.createEmptyTable(TABLE_NAME, jobsSchema(options.modelId, options.dimension), {
        mode: "create",
        existOk: true,
      });
  await checkModel(table, options);
  return createStore(db, table, options.dataDir);
}

/**
 * Opens the `jobs` table of `dataDir` whichever model built it, to look at it (`stats`) without
 * loading an embedder; creates nothing. Undefined when there is no table yet.
 */
export async function inspectStore(dataDir: string): Promise<JobStore | undefined> {
  if (!existsSync(dataDir)) return undefined;
  const db = await connect(dataDir);
  if (!(await db.tableNames()).includes(TABLE_NAME)) {
    db.close();
    return undefined;
  }
  return createStore(db, await db.openTable(TABLE_NAME), dataDir);
}

// --- internal ---

function connect(dataDir: string, readConsistencyMs?: number): Promise<lancedb.Connection> {
  return lancedb.connect(dataDir, {
    readConsistencyInterval: readConsistencyMs === undefined ? undefined : readConsistencyMs / 1000,
  });
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

function createStore(db: lancedb.Connection, table: lancedb.Table, dataDir: string): JobStore {
  const decoded = new PostingCache(POSTING_CACHE_SIZE);
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
      markLoadPending(dataDir);
      // Idempotent (same ids, same rows), so safe to run again after a conflict.
      await retryConflicts(() => table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows.map(toArrowRow)));
    },

    async finishLoad() {
      await retryConflicts(() => table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) }));
      await ensureIndexes(table);
      await writeTermStats(table, dataDir);
      rmSync(join(dataDir, LOAD_PENDING_FILE), { force: true });
    },

    loadPending: () => existsSync(join(dataDir, LOAD_PENDING_FILE)),

    termStats: termStatsReader(dataDir),

    async nearest(vector, filters, limit, full) {
      // Every stored and query vector has unit length, so dot distance (1 − dot) is cosine distance, cheaper.
      let query = table.query().nearestTo(vector).distanceType("dot").select([...candidateColumns(full), "_distance"]).limit(limit);
      // With the ANN index, candidates are re-ranked by exact distance (recall@50 0.999 measured); deep
      // pages stay exact, since the index needs ef ≥ limit × refine and gains little there.
      if (limit <= ANN_MAX_LIMIT && (await hasVectorIndex())) query = query.ef(limit * ANN_REFINE * 2).refineFactor(ANN_REFINE);
      else query = query.bypassVectorIndex();
      const where = buildWhere(filters);
      if (where !== undefined) query = query.where(where);
      const batch = await query.toArrow();
      const distances = batch.getChild("_distance")!;
      return candidateRows(batch, full, decoded).map((row, i) => ({ row, distance: distances.get(i) as number }));
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
      const indexes = await Promise.all(
        (await table.listIndices()).map(async (index): Promise<IndexState> => {
          const stats = await table.indexStats(index.name);
          return {
            name: index.name,
            kind: index.columns.includes("vector") ? "vector" : /fts|inverted/i.test(index.indexType) ? "fts" : "scalar",
            type: stats?.indexType ?? index.indexType,
            columns: index.columns,
            indexedRows: stats?.numIndexedRows ?? 0,
            unindexedRows: stats?.numUnindexedRows ?? 0,
          };
        }),
      );
      const kinds = ["vector", "fts", "scalar"];
      indexes.sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind) || a.name.localeCompare(b.name));
      const path = join(dataDir, `${TABLE_NAME}.lance`);
      return {
        postings: rows.length,
        bySource: mostFirst(bySource).map(([source, postings]) => ({ source, postings })),
        byCountry: mostFirst(byCountry).map(([country, postings]) => ({ country, postings })),
        byMonth: [...byMonth].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([month, postings]) => ({ month, postings })),
        model: { id: metadata.get(MODEL_KEY) ?? null, dimension: Number.isFinite(dimension) ? dimension : null },
        indexes,
        version: await table.version(),
        path,
        diskBytes: folderBytes(path),
      };
    },

    close() {
      table.close();
      db.close();
    },
  };
}

/** Present in DATA_DIR from a load's first write until its finishLoad completed. */
const LOAD_PENDING_FILE = "load-pending";

function markLoadPending(dataDir: string): void {
  const path = join(dataDir, LOAD_PENDING_FILE);
  if (!existsSync(path)) writeFileSync(path, "");
}

/** Bytes of every file under `dir` (0 when it does not exist). */
function folderBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

/** What a search reads of each candidate; each retriever reads it along with its matches. */
function candidateColumns(full: boolean): string[] {
  return full ? [...CANDIDATE_COLUMNS, "job_description"] : [...CANDIDATE_COLUMNS];
}

/**
 * The candidates of a query result, decoded. Decoding (JSON, term sets, vector copy) is the costliest
 * part of a search in JavaScript, so decoded postings are kept by content hash: the same hash is the
 * same content, so a kept posting is never stale, and a re-ingested one gets a new entry.
 */
function candidateRows(batch: ArrowTable, full: boolean, decoded: PostingCache): CandidateRow[] {
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

/** A least-recently-used map: a hit moves the entry to the back, an insert past the size drops the front. */
class PostingCache {
  private readonly entries = new Map<string, CandidateRow>();
  constructor(private readonly size: number) {}

  get(key: string): CandidateRow | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: CandidateRow): void {
    this.entries.set(key, value);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }
}

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

/** Candidate lists longer than this skip the ANN index (see `nearest`). */
const ANN_MAX_LIMIT = 200;
/** The ANN index fetches this many times the candidates and keeps the best by exact distance. */
const ANN_REFINE = 3;

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
