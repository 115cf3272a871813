import type * as lancedb from "@lancedb/lancedb";
import { makeArrowTable } from "@lancedb/lancedb";

/*
 * The same job's postings (server/ingest/clusters.ts assigns them at load): each posting's cluster
 * columns, and what a cluster is as a whole (first and last seen, times posted), computed from them
 * once per table version. A cluster's figures are never stored: they follow from its postings.
 */

/** The columns a load writes per posting: its cluster, when it was first loaded, its same-job signature. */
export const CLUSTER_COLUMNS = ["cluster_id", "first_loaded", "same_job_sig"] as const;

/** A cluster as results show it. */
export interface ClusterFacts {
  /** ISO 8601 (UTC): when the load that first brought one of its postings ran. */
  first_seen: string;
  /** ISO 8601 (UTC): when the load that brought its newest posting ran. */
  last_seen: string;
  /** Distinct days (UTC) its postings were published on: a copy on another source the same day is not another time. */
  times_posted: number;
}

/** Another posting of a cluster, as GET /v1/jobs/{id} lists it. */
export interface SameJobPosting {
  id: string;
  data_source: string;
  job_url: string;
  publish_time: string;
}

/** A stored posting's cluster columns, as a load reads them to assign the next ones. */
export interface StoredCluster {
  id: string;
  cluster_id: string;
  /** Epoch seconds. */
  first_loaded: number;
  same_job_sig: string;
}

/** Whether the table has the cluster columns (tables loaded before clusters get them at their next load). */
export async function hasClusterColumns(table: lancedb.Table): Promise<boolean> {
  return (await table.schema()).fields.some((field) => field.name === "same_job_sig");
}

/** The reads searches and job details make, cached per table version. */
export function clusterReader(table: lancedb.Table) {
  let cache: { version: number; facts: Promise<Map<string, ClusterFacts> | undefined> } | undefined;
  return {
    /** Each cluster's facts by id; undefined for a table without the cluster columns. */
    async clusterFacts(): Promise<Map<string, ClusterFacts> | undefined> {
      const version = await table.version();
      if (cache?.version !== version) cache = { version, facts: readFacts(table) };
      return cache.facts;
    },

    /** The postings of `clusterId` other than `exceptId`, oldest publication first (then by id). */
    async sameJob(clusterId: string, exceptId: string): Promise<SameJobPosting[]> {
      if (!(await hasClusterColumns(table))) return [];
      const rows = await table.query().where(`cluster_id = ${quote(clusterId)}`).select(["id", "data_source", "job_url", "publish_time"]).toArray();
      return rows
        .map((row) => ({ id: String(row.id), data_source: String(row.data_source), job_url: String(row.job_url), publish_time: String(row.publish_time) }))
        .filter((row) => row.id !== exceptId)
        .sort((a, b) => (a.publish_time < b.publish_time ? -1 : a.publish_time > b.publish_time ? 1 : a.id < b.id ? -1 : 1));
    },
  };
}

/** Every posting's cluster columns, in the order they were assigned: first load, publication, id. */
export async function readStoredClusters(table: lancedb.Table): Promise<StoredCluster[]> {
  const rows: Array<StoredCluster & { publish_ts: number }> = [];
  for await (const batch of table.query().select(["id", ...CLUSTER_COLUMNS, "publish_ts"])) {
    for (const row of batch.toArray()) {
      rows.push({ id: String(row.id), cluster_id: String(row.cluster_id), first_loaded: Number(row.first_loaded), same_job_sig: String(row.same_job_sig ?? ""), publish_ts: Number(row.publish_ts) });
    }
  }
  return rows.sort((a, b) => a.first_loaded - b.first_loaded || a.publish_ts - b.publish_ts || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What a load before clusters lacks to be assigned: the signed fields and result_json of every posting. */
export async function readUnclustered(table: lancedb.Table): Promise<Array<Record<string, unknown> & { id: string; result_json: string; content_hash: string }>> {
  const columns = ["id", "job_title", "company_name", "city", "country", "job_description", "content_hash", "result_json", "publish_ts"];
  const rows: Array<Record<string, unknown> & { id: string; result_json: string; content_hash: string }> = [];
  for await (const batch of table.query().select(columns)) for (const row of batch.toArray()) rows.push({ ...row.toJSON() } as (typeof rows)[number]);
  return rows.sort((a, b) => Number(a.publish_ts) - Number(b.publish_ts) || (a.id < b.id ? -1 : 1));
}

/** Adds the cluster columns to a table loaded before them (each posting its own cluster until assigned). */
export async function addClusterColumns(table: lancedb.Table, loadTime: number): Promise<void> {
  await table.addColumns([
    { name: "cluster_id", valueSql: "id" },
    { name: "first_loaded", valueSql: `CAST(${loadTime} AS DOUBLE)` },
    { name: "same_job_sig", valueSql: "''" },
  ]);
}

/** Writes the cluster columns (and result_json, which carries cluster_id) of stored postings, in one commit. */
export async function updateClusters(table: lancedb.Table, rows: Array<StoredCluster & { result_json: string }>): Promise<void> {
  // An Arrow table of these columns alone: rows given as objects would have to carry the vector too.
  if (rows.length > 0) await table.mergeInsert("id").whenMatchedUpdateAll().execute(makeArrowTable(rows as unknown as Array<Record<string, unknown>>));
}

// --- internal ---

async function readFacts(table: lancedb.Table): Promise<Map<string, ClusterFacts> | undefined> {
  if (!(await hasClusterColumns(table))) return undefined;
  const spans = new Map<string, { first: number; last: number; days: Set<string> }>();
  for await (const batch of table.query().select(["cluster_id", "first_loaded", "publish_time"])) {
    const clusters = batch.getChild("cluster_id")!;
    const loaded = batch.getChild("first_loaded")!;
    const published = batch.getChild("publish_time")!;
    for (let i = 0; i < batch.numRows; i++) {
      const id = String(clusters.get(i));
      const time = Number(loaded.get(i));
      const day = String(published.get(i)).slice(0, 10);
      const span = spans.get(id);
      if (span === undefined) spans.set(id, { first: time, last: time, days: new Set([day]) });
      else {
        if (time < span.first) span.first = time;
        if (time > span.last) span.last = time;
        span.days.add(day);
      }
    }
  }
  const facts = new Map<string, ClusterFacts>();
  for (const [id, span] of spans) facts.set(id, { first_seen: iso(span.first), last_seen: iso(span.last), times_posted: span.days.size });
  return facts;
}

/** ISO 8601 in UTC with milliseconds: loads a second apart stay apart. */
function iso(seconds: number): string {
  return new Date(Math.round(seconds * 1000)).toISOString();
}

function quote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
