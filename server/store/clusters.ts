import type * as lancedb from "@lancedb/lancedb";
import { makeArrowTable } from "@lancedb/lancedb";
import { quote } from "./filter.ts";
import { LOADED_AT, firstLoadedAt, hasLoadTimes } from "./postings.ts";
import { compareText } from "../text/order.ts";

/*
 * The same job's postings (server/ingest/clusters.ts assigns them at load): each posting's cluster
 * columns, and what a cluster is as a whole (first and last seen, times posted), computed from them
 * once per table version. A cluster's figures are never stored: they follow from its postings.
 */

/** The columns a load writes per posting: its cluster and its same-job signature (when it was first loaded is `loaded_at`, postings.ts). */
export const CLUSTER_COLUMNS = ["cluster_id", "same_job_sig"] as const;

/** A cluster as results show it. */
export interface ClusterFacts {
  /** ISO 8601 (UTC): when a load first stored one of its postings; absent when none of them has a load time (stored before load times were recorded). */
  first_seen?: string;
  /** ISO 8601 (UTC): when a load first stored its newest posting; absent as first_seen. */
  last_seen?: string;
  /** Distinct days (UTC) its postings were published on: a copy on another source the same day is not another time. */
  times_posted: number;
}

/** Each cluster's facts by its id, worked out when asked: a page asks for ten of some 20,000. */
export interface ClusterFactsLookup {
  get(clusterId: string): ClusterFacts | undefined;
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
  same_job_sig: string;
}

/** Whether the table has the cluster columns (tables loaded before clusters get them at their next load). */
export async function hasClusterColumns(table: lancedb.Table): Promise<boolean> {
  return (await table.schema()).fields.some((field) => field.name === "same_job_sig");
}

/** One version's cluster facts, shared by every reader of the table (the latest handle and each version's view). */
export type ClusterFactsCache = { current?: { version: number; facts: Promise<ClusterFactsLookup | undefined> } };

/** The reads searches and job details make; the facts computed once per table version in `cache`. */
export function clusterReader(table: lancedb.Table, cache: ClusterFactsCache) {
  return {
    /** Each cluster's facts by id; undefined for a table without the cluster columns. */
    async clusterFacts(): Promise<ClusterFactsLookup | undefined> {
      const version = await table.version();
      if (cache.current?.version !== version) cache.current = { version, facts: readFacts(table) };
      return cache.current.facts;
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
  const rows: Array<StoredCluster & { publish_ts: number; loaded: number }> = [];
  // A table made before load times were recorded gets the column at its first write, after this read.
  const timed = await hasLoadTimes(table);
  for await (const batch of table.query().select(["id", ...CLUSTER_COLUMNS, ...(timed ? [LOADED_AT] : []), "publish_ts"])) {
    for (const row of batch.toArray()) {
      const loaded = firstLoadedAt(row.toJSON());
      rows.push({ id: String(row.id), cluster_id: String(row.cluster_id), same_job_sig: String(row.same_job_sig ?? ""), publish_ts: Number(row.publish_ts), loaded });
    }
  }
  return rows.sort((a, b) => a.loaded - b.loaded || byPublication(a, b));
}

/** The order a load assigns its postings to clusters in, as later loads read them back: publication, then id. */
export function byPublication(a: { publish_ts: number; id: string }, b: { publish_ts: number; id: string }): number {
  return a.publish_ts - b.publish_ts || compareText(a.id, b.id);
}

type UnclusteredRow = Record<string, unknown> & { id: string; result_json: string; content_hash: string; publish_ts: number };

/** What a load before clusters lacks to be assigned: the signed fields and result_json of every posting. */
export async function readUnclustered(table: lancedb.Table): Promise<UnclusteredRow[]> {
  const columns = ["id", "job_title", "company_name", "city", "country", "job_description", "content_hash", "result_json", "publish_ts"];
  const rows: UnclusteredRow[] = [];
  for await (const batch of table.query().select(columns)) {
    for (const row of batch.toArray()) {
      const fields = row.toJSON() as UnclusteredRow;
      rows.push({ ...fields, publish_ts: Number(fields.publish_ts) });
    }
  }
  return rows.sort(byPublication);
}

/** Adds the cluster columns to a table loaded before them (each posting its own cluster until assigned). */
export async function addClusterColumns(table: lancedb.Table): Promise<void> {
  await table.addColumns([
    { name: "cluster_id", valueSql: "id" },
    { name: "same_job_sig", valueSql: "''" },
  ]);
}

/** Writes the cluster columns (and result_json, which carries cluster_id) of stored postings, in one commit. */
export async function updateClusters(table: lancedb.Table, rows: Array<StoredCluster & { result_json: string }>): Promise<void> {
  // An Arrow table of these columns alone: rows given as objects would have to carry the vector too.
  if (rows.length > 0) await table.mergeInsert("id").whenMatchedUpdateAll().execute(makeArrowTable(rows as unknown as Array<Record<string, unknown>>));
}

// --- internal ---

async function readFacts(table: lancedb.Table): Promise<ClusterFactsLookup | undefined> {
  if (!(await hasClusterColumns(table))) return undefined;
  // Most clusters hold one posting: a set of days only once a second day is seen.
  const spans = new Map<string, { first: number; last: number; day: string; days?: Set<string> }>();
  const timed = await hasLoadTimes(table);
  for await (const batch of table.query().select(["cluster_id", "publish_time", ...(timed ? [LOADED_AT] : [])])) {
    const clusters = batch.getChild("cluster_id")!;
    const loaded = batch.getChild(LOADED_AT);
    const published = batch.getChild("publish_time")!;
    for (let i = 0; i < batch.numRows; i++) {
      const id = String(clusters.get(i));
      // A posting stored before load times were recorded has none: it says nothing of when its cluster was seen.
      const time = loaded?.get(i) ?? Number.NaN;
      const day = String(published.get(i)).slice(0, 10);
      const span = spans.get(id);
      if (span === undefined) spans.set(id, { first: time, last: time, day });
      else {
        // A NaN bound (no time yet) compares false, so the first time known takes its place.
        if (!Number.isNaN(time) && !(span.first <= time)) span.first = time;
        if (!Number.isNaN(time) && !(span.last >= time)) span.last = time;
        if (day !== span.day) (span.days ??= new Set([span.day])).add(day);
      }
    }
  }
  const made = new Map<string, ClusterFacts>();
  return {
    get(clusterId) {
      const span = spans.get(clusterId);
      if (span === undefined) return undefined;
      let facts = made.get(clusterId);
      if (facts === undefined) {
        const seen = Number.isNaN(span.first) ? {} : { first_seen: iso(span.first), last_seen: iso(span.last) };
        made.set(clusterId, (facts = { ...seen, times_posted: span.days?.size ?? 1 }));
      }
      return facts;
    },
  };
}

/** ISO 8601 in UTC with milliseconds (of epoch ms): loads a second apart stay apart. */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}
