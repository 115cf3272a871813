import type * as lancedb from "@lancedb/lancedb";
import { idIn } from "./filter.ts";

/*
 * When each posting was first loaded: what "new" means to a saved search (server/saved/). A load
 * stamps the postings it writes with the time of their batch's commit (`stampLoad`), and a posting
 * loaded again keeps its first time. Batches commit one at a time under the write lease, each stamped
 * after the one before committed, so a reader that has seen every posting up to time T sees every
 * later posting stamped after T: a cursor of "the latest time seen" misses nothing and repeats nothing.
 * This module is the one place that reads the column: to count "new" by a cluster's first_seen
 * instead, `firstLoadedAt` and the two queries below change, nothing else.
 */

export const LOADED_AT = "loaded_at";

/** When `row` was first loaded (epoch ms); 0 for a posting stored before the table recorded it (never new). */
export function firstLoadedAt(row: { loaded_at?: number | null }): number {
  return row.loaded_at ?? 0;
}

/** The latest first-load time of any posting (epoch ms), 0 for none: where a new saved search's cursor starts. */
export async function latestLoad(table: lancedb.Table): Promise<number> {
  if (!(await hasLoadTimes(table))) return 0;
  let latest = 0;
  for await (const batch of table.query().where(`${LOADED_AT} IS NOT NULL`).select([LOADED_AT])) {
    for (const row of batch.toArray()) latest = Math.max(latest, firstLoadedAt(row.toJSON()));
  }
  return latest;
}

/** The postings first loaded after `after` (epoch ms), with their times: the new ones since a cursor. */
export async function loadedAfter(table: lancedb.Table, after: number): Promise<Array<{ id: string; loadedAt: number }>> {
  if (!Number.isFinite(after) || !(await hasLoadTimes(table))) return [];
  const rows = await table.query().where(`${LOADED_AT} > ${after}`).select(["id", LOADED_AT]).toArray();
  return rows.map((row) => ({ id: String(row.id), loadedAt: firstLoadedAt(row) }));
}

/** The first-load time of each stored posting of `ids` that has one (a load keeps it for the postings it replaces). */
export async function loadTimes(table: lancedb.Table, ids: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (ids.length === 0 || !(await hasLoadTimes(table))) return out;
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    const rows = await table.query().where(`${idIn(ids.slice(i, i + ID_BATCH))} AND ${LOADED_AT} IS NOT NULL`).select(["id", LOADED_AT]).toArray();
    for (const row of rows) out.set(String(row.id), firstLoadedAt(row));
  }
  return out;
}

/** Adds the column to a table made before it existed (its postings stay without a time: never "new"). Writers only. */
export async function ensureLoadTimes(table: lancedb.Table): Promise<void> {
  if (await hasLoadTimes(table)) return;
  await table.addColumns([{ name: LOADED_AT, valueSql: "CAST(NULL AS DOUBLE)" }]);
}

// --- internal ---

const ID_BATCH = 500;

async function hasLoadTimes(table: lancedb.Table): Promise<boolean> {
  return (await table.schema()).fields.some((field) => field.name === LOADED_AT);
}
