import type { Logger } from "../log.ts";
import type { Lease } from "../redis.ts";
import type { JobStore, VectorIndexState } from "./store.ts";

/** How often the server looks at the table's size and its ANN index. */
const CHECK_EVERY_MS = 30_000;
/** Rebuild once rows added since the last build reach this share of the index... */
const REBUILD_GROWTH = 0.2;
/** ...or loads have split it into this many segments. */
const REBUILD_SEGMENTS = 5;

/**
 * Keeps the ANN index in shape in the background: at start and then every 30 s, builds it once the
 * table holds `minRows` postings, and rebuilds it in one piece when loads since the build (folded in
 * by `optimize()` as extra segments, each searched separately) add 20% or more rows or make 5
 * segments. Searches are never blocked: they read the previous table version until the new index
 * is committed. With a `lease` (replicas sharing a table), only the process holding it looks, so
 * replicas do not build the same index at once. Returns a stop function that waits for a build in flight.
 */
export function maintainVectorIndex(store: JobStore, minRows: number, log: Logger, everyMs = CHECK_EVERY_MS, lease?: Lease): () => Promise<void> {
  let running: Promise<void> | undefined;
  /** Rows in the index when this process last saw it in one segment; unknown after a restart. */
  let builtRows: number | undefined;
  const check = () => {
    running ??= (async () => {
      let leased = false;
      try {
        if (lease && !(leased = await lease.acquire())) return;
        const started = performance.now();
        if (await store.ensureVectorIndex(minRows)) {
          log.info("built the ANN index on the vectors", { ms: Math.round(performance.now() - started) });
        }
        const state = await store.vectorIndexState();
        if (state && needsRebuild(state, builtRows)) {
          await store.rebuildVectorIndex();
          log.info("rebuilt the ANN index after loads", { rows: state.indexedRows + state.unindexedRows, segments: state.segments, ms: Math.round(performance.now() - started) });
          builtRows = (await store.vectorIndexState())?.indexedRows;
        } else if (state?.segments === 1) {
          builtRows = state.indexedRows;
        }
      } catch (error) {
        log.warn("could not build the ANN index; searches stay exact", { error });
      } finally {
        if (leased) await lease!.release().catch(() => {});
        running = undefined;
      }
    })();
  };
  check();
  const timer = setInterval(check, everyMs);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

// --- internal ---

function needsRebuild(state: VectorIndexState, builtRows: number | undefined): boolean {
  const rows = state.indexedRows + state.unindexedRows;
  if (state.segments >= REBUILD_SEGMENTS || state.unindexedRows >= REBUILD_GROWTH * rows) return true;
  if (state.segments === 1) return false;
  // A restart forgets the size at the last build: one rebuild brings the index back to one segment.
  return builtRows === undefined || rows - builtRows >= REBUILD_GROWTH * builtRows;
}
