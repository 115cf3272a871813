import type * as lancedb from "@lancedb/lancedb";
import { addClusterColumns, hasClusterColumns, readStoredClusters, readUnclustered, updateClusters } from "./clusters.ts";
import { idIn } from "./filter.ts";
import { ensureIndexes } from "./indexes.ts";
import { ensureLoadTimes, loadTimes } from "./postings.ts";
import type { StoredJob } from "./schema.ts";
import type { StoreWriter } from "./store.ts";
import { sideFile, type TableLocation } from "./table-location.ts";
import { TERM_STATS_FILE, writeTermStats, type termStatsReader } from "./term-stats.ts";

/**
 * The loads' view of the table: which postings are stored as they are, upserts by id (one commit
 * each), and the finishing steps after a load. A `load-pending` file beside the table marks a load
 * that wrote rows but did not finish them.
 */
export function createWriter(table: lancedb.Table, location: TableLocation, termStats: ReturnType<typeof termStatsReader>): StoreWriter {
  const pending = sideFile(location, LOAD_PENDING_FILE);
  return {
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
      const stamped = await stampLoad(table, rows);
      await retryConflicts(() => table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(stamped));
    },

    async idsWhere(where) {
      const rows = await table.query().where(where).select(["id"]).toArray();
      return rows.map((row) => String(row.id));
    },

    async remove(where) {
      const count = await table.countRows(where);
      if (count === 0) return 0;
      if ((await pending.tag()) === undefined) await pending.write("");
      await retryConflicts(() => table.delete(where));
      return count;
    },

    async replace(rows, removeIds) {
      if (rows.length === 0 && removeIds.length === 0) return;
      if ((await pending.tag()) === undefined) await pending.write("");
      if (rows.length === 0) return void (await retryConflicts(() => table.delete(idIn(removeIds))));
      // One merge: new rows inserted, changed ones replaced, and the removed ones (absent from `rows`) deleted.
      let merge = table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll();
      if (removeIds.length > 0) merge = merge.whenNotMatchedBySourceDelete({ where: idIn(removeIds) });
      const stamped = await stampLoad(table, rows);
      await retryConflicts(() => merge.execute(stamped));
    },

    async finishLoad() {
      await retryConflicts(() => table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) }));
      await ensureIndexes(table);
      const file = sideFile(location, TERM_STATS_FILE);
      // Loads hold the write lease: the file's tag now is that of what was just written.
      termStats.set(await writeTermStats(table, file), await file.tag());
      await pending.remove();
    },

    loadPending: async () => (await pending.tag()) !== undefined,

    storedClusters: async () => ((await hasClusterColumns(table)) ? readStoredClusters(table) : undefined),

    async addClusterColumns() {
      if ((await pending.tag()) === undefined) await pending.write("");
      await retryConflicts(() => addClusterColumns(table));
      return readUnclustered(table);
    },

    async updateClusters(rows) {
      if (rows.length === 0) return;
      if ((await pending.tag()) === undefined) await pending.write("");
      await retryConflicts(() => updateClusters(table, rows));
    },
  };
}

/**
 * Runs a table change again when another writer committed first (LanceDB's "Retryable commit
 * conflict"): an ingest's optimize() and the server's background index rebuild may meet.
 */
export async function retryConflicts<T>(change: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await change();
    } catch (error) {
      if (attempt >= attempts || !(error instanceof Error && /retryable commit conflict/i.test(error.message))) throw error;
      await Bun.sleep(50 * attempt);
    }
  }
}

// --- internal ---

/** Beside the table from a load's first write until its finishLoad completed. */
const LOAD_PENDING_FILE = "load-pending";

let lastStamp = 0;

/**
 * The rows as written, each with the time it was first loaded (store/postings.ts): a posting already stored
 * keeps its time, a new one gets now. Taken just before the commit, after the previous batch's.
 */
async function stampLoad(table: lancedb.Table, rows: StoredJob[]): Promise<Array<Record<string, unknown>>> {
  await ensureLoadTimes(table);
  const kept = await loadTimes(table, rows.map((row) => row.id));
  // Strictly later than this process's previous batch, even within one millisecond or after a clock step back.
  const now = (lastStamp = Math.max(Date.now(), lastStamp + 1));
  return rows.map((row) => ({ ...row, loaded_at: kept.get(row.id) ?? now, vector: Array.from(row.vector) }));
}
