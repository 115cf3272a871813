import * as lancedb from "@lancedb/lancedb";
import { DIMENSION_KEY, MODEL_KEY, TABLE_NAME } from "./schema.ts";
import type { IndexState, StoreAdmin, VectorIndexState } from "./store.ts";
import { bytesUnder, type TableLocation } from "./table-location.ts";
import { retryConflicts } from "./write.ts";

/** Whether the current version has a vector index, looked up once per version. */
export function vectorIndexPresence(table: lancedb.Table): () => Promise<boolean> {
  let cache: { version: number; indexed: boolean } | undefined;
  return async () => {
    const version = await table.version();
    if (cache?.version !== version) {
      const indexed = (await table.listIndices()).some((index) => index.columns.includes("vector"));
      cache = { version, indexed };
    }
    return cache.indexed;
  };
}

/** The ANN index, the table's indexes and statistics (see StoreAdmin). */
export function createAdmin(table: lancedb.Table, location: TableLocation, hasVectorIndex: () => Promise<boolean>): StoreAdmin {
  let indexStateCache: { version: number; state: VectorIndexState | undefined } | undefined;
  return {
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
  };
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

/** HNSW over scalar-quantized vectors, dot distance on unit vectors (best measured here; IVF_PQ lost recall). */
async function createVectorIndex(table: lancedb.Table, replace: boolean): Promise<void> {
  await retryConflicts(() => table.createIndex("vector", { config: lancedb.Index.hnswSq({ distanceType: "dot", numPartitions: 1 }), replace }));
}

/**
 * Filter columns with an index. Measured with bench/filter-indexes.ts on the 29.5k postings: search
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

