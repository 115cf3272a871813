import * as lancedb from "@lancedb/lancedb";
import { DIMENSION_KEY, MODEL_KEY, TABLE_NAME } from "./schema.ts";
import type { StoreAdmin } from "./store.ts";
import { bytesUnder, type TableLocation } from "./table-location.ts";
import { retryConflicts } from "./write.ts";

/** The distance a vector index was trained with; its searches must use the same. "l2": the partitioned index of large tables. */
export type IndexDistance = "dot" | "l2";

/** The current version's vector index, by the distance it was trained with (undefined: none), looked up once per version. */
export function vectorIndexPresence(table: lancedb.Table): () => Promise<IndexDistance | undefined> {
  let cache: { version: number; distance: IndexDistance | undefined } | undefined;
  return async () => {
    const version = await table.version();
    if (cache?.version !== version) {
      const indexed = (await table.listIndices()).some((index) => index.columns.includes("vector"));
      const distance = indexed ? ((await table.indexStats(VECTOR_INDEX_NAME))?.distanceType ?? "dot") : undefined;
      cache = { version, distance: distance as IndexDistance | undefined };
    }
    return cache.distance;
  };
}

/** The ANN index, the table's indexes and statistics (see StoreAdmin). */
export function createAdmin(table: lancedb.Table, location: TableLocation, vectorIndex: () => Promise<IndexDistance | undefined>): StoreAdmin {
  let indexStateCache: { version: number; state: VectorIndexState | undefined } | undefined;
  return {
    async ensureVectorIndex(minRows) {
      if ((await vectorIndex()) !== undefined || (await table.countRows()) < minRows) return false;
      await createVectorIndex(table, false);
      return true;
    },

    async vectorIndexState() {
      // Looked up once per table version: LanceDB logs a warning with every indexStats() call.
      const version = await table.version();
      if (indexStateCache?.version !== version) {
        const stats = (await vectorIndex()) !== undefined ? await table.indexStats(VECTOR_INDEX_NAME) : undefined;
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
  };
}

/** Rows from which the vector index is partitioned (IVF): below, one HNSW graph builds fast enough. */
export const PARTITIONED_FROM = 200_000;

/**
 * The ANN index for a table of `rows` postings (unit vectors). Below PARTITIONED_FROM: HNSW over
 * scalar-quantized vectors in one partition, dot distance (best measured at 29.5k; IVF_PQ lost recall).
 * From it: IVF_FLAT, √rows partitions of exact vectors probed ANN_NPROBES at a time (read.ts),
 * trained on l2, which ranks unit vectors as dot does but balances the partitions (k-means on dot
 * left partitions empty: recall@20 0.953 at 80 probes, l2 0.970). At 1M postings on two busy cores:
 * IVF_FLAT builds in ~11 s, HNSW-SQ took 510 s and IVF_HNSW_SQ in 64 partitions 972 s (bench/perf/scale-indexes.ts).
 */
export function vectorIndexConfig(rows: number): lancedb.Index {
  if (rows < PARTITIONED_FROM) return lancedb.Index.hnswSq({ distanceType: "dot", numPartitions: 1 });
  return partitionedIndex(Math.round(Math.sqrt(rows)));
}

/** IVF_FLAT in `partitions` partitions trained on l2 (the large tables' index; see vectorIndexConfig). */
export function partitionedIndex(partitions: number): lancedb.Index {
  return lancedb.Index.ivfFlat({ distanceType: "l2", numPartitions: partitions });
}

/** Creates missing indexes; optimize() has already folded new rows into existing ones. */
export async function ensureIndexes(table: lancedb.Table): Promise<void> {
  if ((await table.countRows()) === 0) return;
  const existing = new Set((await table.listIndices()).flatMap((index) => index.columns));
  for (const [column, kind] of SCALAR_INDEXES) {
    if (existing.has(column)) continue;
    const config = kind === "bitmap" ? lancedb.Index.bitmap() : kind === "labelList" ? lancedb.Index.labelList() : lancedb.Index.btree();
    await retryConflicts(() => table.createIndex(column, { config }));
  }
  for (const column of TEXT_INDEXES) {
    if (existing.has(column)) continue;
    await retryConflicts(() => table.createIndex(column, { config: lancedb.Index.fts({ withPosition: false }) }));
  }
  if (!existing.has("cjk_text")) await retryConflicts(() => table.createIndex("cjk_text", { config: cjkIndex() }));
}


// --- internal ---

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

/** LanceDB's name for the index on the `vector` column. */
const VECTOR_INDEX_NAME = "vector_idx";

async function createVectorIndex(table: lancedb.Table, replace: boolean): Promise<void> {
  const config = vectorIndexConfig(await table.countRows());
  await retryConflicts(() => table.createIndex("vector", { config, replace }));
}

/**
 * Filter columns with an index. Measured with bench/perf/filter-indexes.ts on the 29.5k postings: search
 * p50 with vs without, tags 7.5 vs 13.1 ms, remote 7.6 vs 12.8, near 8.6 vs 11.5, seniority 7.5 vs
 * 9.4, employment type 6.3 vs 8.2, salary 6.2 vs 7.6; the five build in under 50 ms.
 */
const SCALAR_INDEXES: Array<[column: string, kind: "bitmap" | "btree" | "labelList"]> = [
  ["id", "btree"],
  ["city", "bitmap"],
  ["country", "bitmap"],
  ["seniority_level", "bitmap"],
  ["employment_type", "bitmap"],
  ["tag_keys", "labelList"],
  ["salary_min_usd", "btree"],
  ["salary_max_usd", "btree"],
  ["lat", "btree"],
  ["data_source", "bitmap"],
  ["publish_ts", "btree"],
];
const TEXT_INDEXES = ["job_title", "job_description"];
/** CJK pairs are words already: split on spaces only, nothing to lowercase, stem or drop. */
const cjkIndex = () =>
  lancedb.Index.fts({
    baseTokenizer: "whitespace", lowercase: false, stem: false, removeStopWords: false, asciiFolding: false, withPosition: false,
  });

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
