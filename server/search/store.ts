import { mkdirSync } from "node:fs";
import * as lancedb from "@lancedb/lancedb";
import { AppError } from "../../shared/errors.ts";
import type { SearchFilters } from "../../shared/search.ts";
import { buildWhere, quote } from "./filter.ts";
import { DIMENSION_KEY, FULL_COLUMNS, MODEL_KEY, SUMMARY_COLUMNS, TABLE_NAME, jobsSchema, type StoredJob } from "./schema.ts";

export interface StoreOptions {
  dataDir: string;
  modelId: string;
  dimension: number;
  /** How often reads look for other processes' writes, in ms; undefined = never. */
  readConsistencyMs?: number;
}

/** A row as a search returns it: stored columns (without vector) plus the cosine distance. */
export type FoundJob = Omit<StoredJob, "vector" | "content_hash" | "job_description"> & {
  job_description?: string;
  _distance: number;
};

export interface Facets {
  cities: string[];
  sources: string[];
}

export interface JobStore {
  readonly table: lancedb.Table;
  count(): Promise<number>;
  /** content_hash of those of `ids` that are stored. */
  existingHashes(ids: string[]): Promise<Map<string, string>>;
  /** Inserts new postings and replaces stored ones with the same id. */
  upsert(rows: StoredJob[]): Promise<void>;
  /** After a load: compacts fragments and brings the scalar and full-text indexes up to date. */
  finishLoad(): Promise<void>;
  /** The `limit` nearest postings to `vector` among those matching `filters` (prefiltered, exact). */
  nearest(vector: Float32Array, filters: SearchFilters, limit: number, full: boolean): Promise<FoundJob[]>;
  /** Distinct cities and sources present, recomputed only when the table changed. */
  facets(): Promise<Facets>;
  close(): void;
}

/**
 * Opens (creating when missing) the `jobs` table in `dataDir`. Fails with a clear message when
 * the table was built with another embedding model or dimension.
 */
export async function openStore(options: StoreOptions): Promise<JobStore> {
  mkdirSync(options.dataDir, { recursive: true });
  const db = await lancedb.connect(options.dataDir, {
    readConsistencyInterval: options.readConsistencyMs === undefined ? undefined : options.readConsistencyMs / 1000,
  });
  const table = (await db.tableNames()).includes(TABLE_NAME)
    ? await db.openTable(TABLE_NAME)
    : await db.createEmptyTable(TABLE_NAME, jobsSchema(options.modelId, options.dimension), {
        mode: "create",
        existOk: true,
      });
  await checkModel(table, options);
  return createStore(db, table);
}

// --- internal ---

async function checkModel(table: lancedb.Table, options: StoreOptions): Promise<void> {
  const metadata = (await table.schema()).metadata;
  const storedModel = metadata.get(MODEL_KEY);
  const storedDimension = Number(metadata.get(DIMENSION_KEY));
  if (storedModel === options.modelId && storedDimension === options.dimension) return;
  throw new Error(
    `the jobs table in ${options.dataDir} was built with embedding model "${storedModel}" (dimension ${storedDimension}), ` +
      `but EMBEDDING_MODEL gives "${options.modelId}" (dimension ${options.dimension}). ` +
      `Set EMBEDDING_MODEL back, or re-ingest into an empty DATA_DIR with the new model.`,
  );
}

function createStore(db: lancedb.Connection, table: lancedb.Table): JobStore {
  let facetCache: { version: number; facets: Facets } | undefined;

  return {
    table,
    count: () => table.countRows(),

    async existingHashes(ids) {
      const found = new Map<string, string>();
      if (ids.length === 0) return found;
      const rows = await table
        .query()
        .where(`id IN (${ids.map(quote).join(", ")})`)
        .select(["id", "content_hash"])
        .toArray();
      for (const row of rows) found.set(row.id, row.content_hash);
      return found;
    },

    async upsert(rows) {
      if (rows.length === 0) return;
      await table
        .mergeInsert("id")
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .execute(rows.map(toArrowRow));
    },

    async finishLoad() {
      await table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
      await ensureIndexes(table);
    },

    async nearest(vector, filters, limit, full) {
      let query = table
        .query()
        .nearestTo(vector)
        .distanceType("cosine")
        .select([...(full ? FULL_COLUMNS : SUMMARY_COLUMNS), "_distance"])
        .limit(limit);
      const where = buildWhere(filters);
      if (where !== undefined) query = query.where(where);
      const rows = await query.toArray();
      return rows.map((row) => ({ ...row, job_tags: listValues(row.job_tags) }) as FoundJob);
    },

    async facets() {
      const version = await table.version();
      if (facetCache?.version === version) return facetCache.facets;
      const rows = await table.query().select(["city", "data_source"]).toArray();
      const cities = new Set<string>();
      const sources = new Set<string>();
      for (const row of rows) {
        if (row.city) cities.add(row.city);
        sources.add(row.data_source);
      }
      const facets = { cities: [...cities].sort(), sources: [...sources].sort() };
      facetCache = { version, facets };
      return facets;
    },

    close() {
      table.close();
      db.close();
    },
  };
}

const SCALAR_INDEXES: Array<[column: string, kind: "bitmap" | "btree"]> = [
  ["id", "btree"],
  ["city", "bitmap"],
  ["country", "bitmap"],
  ["data_source", "bitmap"],
  ["publish_ts", "btree"],
];
const TEXT_INDEXES = ["job_title", "job_description"];

/** Creates missing indexes; optimize() has already folded new rows into existing ones. */
async function ensureIndexes(table: lancedb.Table): Promise<void> {
  if ((await table.countRows()) === 0) return;
  const existing = new Set((await table.listIndices()).flatMap((index) => index.columns));
  for (const [column, kind] of SCALAR_INDEXES) {
    if (existing.has(column)) continue;
    const config = kind === "bitmap" ? lancedb.Index.bitmap() : lancedb.Index.btree();
    await table.createIndex(column, { config });
  }
  for (const column of TEXT_INDEXES) {
    if (existing.has(column)) continue;
    await table.createIndex(column, { config: lancedb.Index.fts({ withPosition: false }) });
  }
}

function toArrowRow(row: StoredJob): Record<string, unknown> {
  return { ...row, vector: Array.from(row.vector) };
}

/** Arrow list cells come back as Vector objects; callers want plain arrays. */
function listValues(value: unknown): string[] {
  if (value == null) return [];
  if (Array.isArray(value)) return value as string[];
  return Array.from(value as Iterable<string>);
}
