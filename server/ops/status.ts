import type { Embedder } from "../embedding/embedder.ts";
import type { JobStore } from "../store/store.ts";

export interface IndexState {
  name: string;
  type: string;
  column: string;
  indexedRows: number;
  unindexedRows: number;
}

/** The jobs table as /readyz and /metrics report it. */
export type TableState = OpenTableState | { open: false; error: string };

export interface OpenTableState {
  open: true;
  version: number;
  postings: number;
  /** Whether the ANN index on the vectors exists. */
  vectorIndex: boolean;
  indexes: IndexState[];
}

export interface Readiness {
  ready: boolean;
  checks: {
    table: { ok: true; postings: number; version: number } | { ok: false; error: string };
    model: { ok: true; id: string; dimension: number } | { ok: false; error: string };
    /** Informational, never makes the service unready: searches are exact where the ANN index does not reach. */
    index: VectorIndexCheck;
  };
}

/**
 * The ANN index as /readyz reports it. `vector`: "ready" (every row indexed), "partial" (some rows
 * are searched exactly beside it), "none" (exact search only: below VECTOR_INDEX_MIN_ROWS, or not
 * built yet); `building`: this server's background build process is running.
 */
export interface VectorIndexCheck {
  ok: true;
  vector: "ready" | "partial" | "none";
  indexed_rows: number;
  unindexed_rows: number;
  building: boolean;
}

export interface ServiceStatus {
  /** The table's state; recomputed only when the table's version changed, and concurrent callers share one look. */
  table(): Promise<TableState>;
  readiness(): Promise<Readiness>;
}

/**
 * What /readyz checks and the store gauges of /metrics read. Looking costs one `version()` while
 * the table is unchanged; after a write, a row count and the index statistics once.
 */
export function createServiceStatus(deps: { store: JobStore; embedder: Embedder | undefined; indexBuilding?: () => boolean }): ServiceStatus {
  const { store, embedder } = deps;
  let cached: OpenTableState | undefined;
  let inFlight: Promise<TableState> | undefined;

  const look = async (): Promise<TableState> => {
    const table = store.table;
    try {
      if (!table.isOpen()) return { open: false, error: "the jobs table is closed" };
      const version = await table.version();
      if (cached?.version === version) return cached;
      const [postings, listed] = await Promise.all([table.countRows(), store.indexes()]);
      const indexes = listed.map((index): IndexState => ({
        name: index.name,
        type: index.listedType,
        column: index.columns.join(","),
        indexedRows: index.indexedRows,
        unindexedRows: index.unindexedRows,
      }));
      const vectorIndex = listed.some((index) => index.kind === "vector");
      cached = { open: true, version, postings, vectorIndex, indexes };
      return cached;
    } catch (error) {
      return { open: false, error: error instanceof Error ? error.message : String(error) };
    }
  };

  const tableState = () => (inFlight ??= look().finally(() => (inFlight = undefined)));

  return {
    table: tableState,
    async readiness() {
      const state = await tableState();
      const table: Readiness["checks"]["table"] = state.open
        ? { ok: true, postings: state.postings, version: state.version }
        : { ok: false, error: state.error };
      const model: Readiness["checks"]["model"] = embedder
        ? { ok: true, id: embedder.modelId, dimension: embedder.dimension }
        : { ok: false, error: "the embedding model is not loaded" };
      const vector = state.open ? state.indexes.find((index) => index.column === "vector") : undefined;
      const index: VectorIndexCheck = {
        ok: true,
        vector: vector === undefined ? "none" : vector.unindexedRows > 0 ? "partial" : "ready",
        indexed_rows: vector?.indexedRows ?? 0,
        unindexed_rows: vector?.unindexedRows ?? (state.open ? state.postings : 0),
        building: deps.indexBuilding?.() ?? false,
      };
      return { ready: table.ok && model.ok, checks: { table, model, index } };
    },
  };
}
