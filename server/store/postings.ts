import type * as lancedb from "@lancedb/lancedb";
import type { Posting } from "../../shared/job.ts";
import type { FilterValues } from "../../shared/search.ts";
import { idIn, quote } from "./filter.ts";

/*
 * Reading postings by id, counting the values of the filter fields over the whole table (what job
 * details, similar jobs, facets and the MCP tool list_filters read beside searches), and when each
 * posting was first loaded (below).
 */

/**
 * A posting with its vector (for similar jobs) and its cluster (its own id on a table loaded before
 * clusters), or undefined when no posting has this id.
 */
export async function readPosting(table: lancedb.Table, id: string, clustered: boolean): Promise<{ posting: Posting; vector: Float32Array; clusterId: string } | undefined> {
  if (id.includes("\u0000")) return undefined;
  const rows = await table.query().where(idIn([id])).select([...POSTING_COLUMNS, "vector", ...(clustered ? ["cluster_id"] : [])]).limit(1).toArray();
  const row = rows[0];
  if (!row) return undefined;
  const posting: Record<string, unknown> = {};
  for (const column of POSTING_COLUMNS) {
    const value = column === "job_tags" ? [...(row.job_tags?.toArray() ?? [])].map(String) : row[column];
    if (value !== null && value !== undefined && value !== "") posting[column] = value;
  }
  return { posting: posting as Posting, vector: Float32Array.from(row.vector.toArray() as Float32Array), clusterId: clustered ? String(row.cluster_id) : id };
}

/** The country of each of `ids` that is stored (null when the posting names none). */
export async function readCountries(table: lancedb.Table, ids: string[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    const rows = await table.query().where(idIn(ids.slice(i, i + ID_BATCH))).select(["id", "country"]).toArray();
    for (const row of rows) out.set(row.id, row.country ?? null);
  }
  return out;
}

/** Each filter's values over the whole table with their postings, most first (tags: the top ones). */
export async function readFilterValues(table: lancedb.Table, topTags: number): Promise<FilterValues> {
  const counts = { city: new Map(), country: new Map(), source: new Map(), seniority: new Map(), employment_type: new Map(), remote: new Map(), tags: new Map() } as Record<keyof FilterValues, Map<string, number>>;
  const add = (name: keyof FilterValues, value: string | null | undefined) => {
    if (value) counts[name].set(value, (counts[name].get(value) ?? 0) + 1);
  };
  for await (const batch of table.query().select(["city", "country", "data_source", "seniority_level", "employment_type", "tag_keys"])) {
    for (const row of batch.toArray()) {
      add("city", row.city);
      add("country", row.country);
      add("source", row.data_source);
      add("seniority", row.seniority_level);
      add("employment_type", row.employment_type);
      const tags = [...(row.tag_keys?.toArray() ?? [])].map(String);
      add("remote", String(tags.includes("remote")));
      for (const tag of new Set(tags)) add("tags", tag);
    }
  }
  const sorted = (map: Map<string, number>) =>
    [...map].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  const values = Object.fromEntries(Object.entries(counts).map(([name, map]) => [name, sorted(map)])) as unknown as FilterValues;
  values.tags = values.tags.slice(0, topTags);
  return values;
}

/*
 * When each posting was first loaded: what "new" means to a saved search (server/saved/). A load
 * stamps the postings it writes with the time of their batch's commit (`stampLoad`), and a posting
 * loaded again keeps its first time. Batches commit one at a time under the write lease, each stamped
 * after the one before committed, so a reader that has seen every posting up to time T sees every
 * later posting stamped after T: a cursor of "the latest time seen" misses nothing and repeats nothing.
 * A posting is new only when its whole cluster is (server/store/clusters.ts): a repost, or a copy on
 * another source, of a job some earlier posting brought is loaded after the cursor but is not news.
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

/**
 * The postings first loaded after `after` (epoch ms), with their times, each marked `seen` when a
 * posting of its cluster was loaded by then (or before load times were recorded): the job is not new.
 */
export async function loadedAfter(table: lancedb.Table, after: number): Promise<Array<{ id: string; loadedAt: number; seen: boolean }>> {
  if (!Number.isFinite(after) || !(await hasLoadTimes(table))) return [];
  const clustered = (await table.schema()).fields.some((field) => field.name === "cluster_id");
  const rows = await table.query().where(`${LOADED_AT} > ${after}`).select(["id", LOADED_AT, ...(clustered ? ["cluster_id"] : [])]).toArray();
  const clusters = clustered ? [...new Set(rows.map((row) => String(row.cluster_id)))] : [];
  const seen = new Set<string>();
  for (let i = 0; i < clusters.length; i += ID_BATCH) {
    const batch = clusters.slice(i, i + ID_BATCH).map(quote).join(", ");
    const earlier = await table.query().where(`cluster_id IN (${batch}) AND (${LOADED_AT} IS NULL OR ${LOADED_AT} <= ${after})`).select(["cluster_id"]).toArray();
    for (const row of earlier) seen.add(String(row.cluster_id));
  }
  return rows.map((row) => ({ id: String(row.id), loadedAt: firstLoadedAt(row), seen: clustered && seen.has(String(row.cluster_id)) }));
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

/** The posting's own fields, as loaded (the stored columns a caller may see). */
const POSTING_COLUMNS = [
  "id", "job_title", "company_name", "city", "country", "publish_time", "base_salary", "job_url", "job_tags",
  "data_source", "seniority_level", "employment_type", "job_description",
] as const;

/** Ids per look-up query (an IN list of this many stays fast with the id index). */
const ID_BATCH = 500;

export async function hasLoadTimes(table: lancedb.Table): Promise<boolean> {
  return (await table.schema()).fields.some((field) => field.name === LOADED_AT);
}
