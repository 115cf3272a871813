import type * as lancedb from "@lancedb/lancedb";
import type { Posting } from "../../shared/job.ts";
import type { FilterValues } from "../../shared/search.ts";
import { idIn } from "./filter.ts";

/*
 * Reading postings by id and counting the values of the filter fields over the whole table: what job
 * details, similar jobs, facets and the MCP tool list_filters read beside searches.
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

// --- internal ---

/** The posting's own fields, as loaded (the stored columns a caller may see). */
const POSTING_COLUMNS = [
  "id", "job_title", "company_name", "city", "country", "publish_time", "base_salary", "job_url", "job_tags",
  "data_source", "seniority_level", "employment_type", "job_description",
] as const;

/** Ids per look-up query (an IN list of this many stays fast with the id index). */
const ID_BATCH = 500;
