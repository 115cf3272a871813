import { createHash } from "node:crypto";
import type { JobResult, ValidJobRecord } from "../../shared/job.ts";
import { parseDateTime } from "../../shared/time.ts";
import type { Embedder } from "../search/embedder.ts";
import type { StoredJob } from "../search/schema.ts";
import { rankingTerms } from "../search/ranking.ts";
import type { JobStore } from "../search/store.ts";
import { updateVectorIndex, VECTOR_INDEX_MIN_ROWS, type IndexUpdate, type IndexWork } from "../search/index-maintenance.ts";
import { writeLock, type LeaseHolder, type WriteLease, type WriteLock } from "../search/write-lease.ts";
import { readRecords, type RawRecord, type ReadOptions } from "./read.ts";
import { validateRecord } from "./validate.ts";

export interface IngestOptions {
  /** Abort before writing anything when any record is invalid. */
  strict?: boolean;
  batchSize?: number;
  /** Called after each batch with the records handled so far. */
  onProgress?: (done: number, total: number) => void;
  /** Wait for another writer of the table (default), or throw WriteBusyError at once. */
  wait?: boolean;
  /** Called once when another writer holds the table and this load starts to wait for it. */
  onWait?: (holder: LeaseHolder | undefined) => void;
  /** The write lease when the caller already holds it (it stays held); else the load takes and releases it. */
  lease?: WriteLease;
  /** Build the ANN index once the table holds this many postings (VECTOR_INDEX_MIN_ROWS). */
  vectorIndexMinRows?: number;
  /** Called when the load starts to build or rebuild the ANN index (it may take minutes). */
  onIndex?: (work: NonNullable<IndexWork>, rows: number) => void;
}

/** What a load needs: the table, the embedder, and the table's write lock (default: a local folder's). */
export interface IngestDeps {
  store: JobStore;
  embedder: Embedder;
  lock?: WriteLock;
}

export interface IngestProblem {
  ref: string;
  problem: string;
}

export interface IngestSummary {
  inserted: number;
  updated: number;
  unchanged: number;
  invalid: number;
  /** Earlier copies of an id that appears again later in the same load (the last one wins). */
  duplicates: number;
  problems: IngestProblem[];
  /** What the load did to the ANN index (work undefined: nothing needed). */
  index?: IndexUpdate;
  seconds: number;
}

export class StrictIngestError extends Error {
  constructor(readonly problems: IngestProblem[]) {
    super(`${problems.length} invalid record(s); --strict given, nothing was written`);
    this.name = "StrictIngestError";
  }
}

/** Reads (see {@link readRecords} for formats), validates and upserts a file of postings; see {@link ingestRecords}. */
export async function ingestFile(
  deps: IngestDeps,
  path: string,
  options: IngestOptions & ReadOptions = {},
): Promise<IngestSummary> {
  return ingestRecords(deps, await readRecords(path, { format: options.format, map: options.map }), options);
}

/**
 * Validates every record, then, holding the table's write lease (waiting for another writer
 * unless `wait: false`), upserts the valid ones by id in batches: new ids are inserted, changed
 * postings replaced, identical ones left alone (neither embedded nor written), so re-running a load
 * changes nothing. Each batch is one commit, so a load killed at any point leaves the table at a
 * batch boundary, and running it again completes it. Then it compacts, updates the other indexes
 * and builds or rebuilds the ANN index when the table needs it, so a server never has to build it
 * on start. With `strict`, throws StrictIngestError before any write.
 */
export async function ingestRecords(
  deps: IngestDeps,
  raw: RawRecord[],
  options: IngestOptions = {},
): Promise<IngestSummary> {
  const started = performance.now();
  const problems: IngestProblem[] = [];
  const byId = new Map<string, ValidJobRecord>();
  for (const record of raw) {
    const checked = validateRecord(record);
    if (checked.ok) {
      byId.delete(checked.record.id); // re-insert so the last copy keeps its place
      byId.set(checked.record.id, checked.record);
    } else problems.push({ ref: record.ref, problem: checked.problem });
  }
  if (options.strict && problems.length > 0) throw new StrictIngestError(problems);

  const valid = [...byId.values()];
  const summary: IngestSummary = {
    inserted: 0, updated: 0, unchanged: 0, invalid: problems.length,
    duplicates: raw.length - problems.length - valid.length, problems, index: { work: undefined, rows: 0, ms: 0 }, seconds: 0,
  };
  const lease = options.lease ?? (await (deps.lock ?? writeLock(deps.store.location)).acquire({ what: "load", wait: options.wait, onWait: options.onWait }));
  try {
    // Another writer may have committed while this one waited.
    await deps.store.refresh();
    await writeBatches(deps, valid, summary, options);
  } finally {
    if (!options.lease) await lease.release();
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

/**
 * What the embedder sees of a posting: the title twice (a title match says more than a
 * description match) and the start of the description, where postings say what the job is.
 */
export function documentText(record: Pick<ValidJobRecord, "job_title" | "job_description">): string {
  const title = record.job_title ?? "";
  return `${title}. ${title}. ${record.job_description.slice(0, 1500)}`;
}

/** The summary line every load ends with. */
export function formatSummary(summary: IngestSummary): string {
  const skipped = summary.invalid + summary.duplicates + summary.unchanged;
  const handled = summary.inserted + summary.updated + skipped;
  const rate = summary.seconds > 0 ? Math.round(handled / summary.seconds) : handled;
  const { work, ms } = summary.index ?? { work: undefined, ms: 0 };
  const index = work === undefined ? "" : `; ${work === "build" ? "built" : "rebuilt"} the vector index in ${(ms / 1000).toFixed(1)} s`;
  return `ingested ${summary.inserted} new, ${summary.updated} updated, ${skipped} skipped in ${summary.seconds.toFixed(1)} s (${rate}/s)${index}`;
}

// --- internal ---

/** The batches, the finishing steps and the ANN index, under the write lease. */
async function writeBatches(deps: IngestDeps, valid: ValidJobRecord[], summary: IngestSummary, options: IngestOptions): Promise<void> {
  const batchSize = options.batchSize ?? 2000;
  for (let start = 0; start < valid.length; start += batchSize) {
    const batch = valid.slice(start, start + batchSize).map((record) => ({ record, hash: contentHash(record) }));
    const stored = await deps.store.existingHashes(batch.map(({ record }) => record.id));
    const changed = batch.filter(({ record, hash }) => stored.get(record.id) !== hash);
    const vectors = await deps.embedder.embedDocuments(changed.map(({ record }) => documentText(record)));
    await deps.store.upsert(changed.map(({ record, hash }, i) => toStoredJob(record, hash, vectors[i]!)));
    for (const { record } of changed) {
      if (stored.has(record.id)) summary.updated++;
      else summary.inserted++;
    }
    summary.unchanged += batch.length - changed.length;
    options.onProgress?.(Math.min(start + batchSize, valid.length), valid.length);
  }
  // A load killed after its writes left the table unfinished: the re-run finishes it.
  if (summary.inserted + summary.updated > 0 || (await deps.store.loadPending())) await deps.store.finishLoad();
  summary.index = await updateVectorIndex(deps.store, options.vectorIndexMinRows ?? VECTOR_INDEX_MIN_ROWS, options.onIndex);
}

function contentHash(record: ValidJobRecord): string {
  return createHash("sha256").update(JSON.stringify(normalized(record))).digest("hex").slice(0, 32);
}

function normalized(record: ValidJobRecord) {
  return {
    id: record.id,
    job_title: record.job_title ?? null,
    company_name: record.company_name ?? null,
    city: record.city ?? null,
    country: record.country ?? null,
    publish_time: record.publish_time,
    base_salary: record.base_salary ?? null,
    job_url: record.job_url,
    job_tags: record.job_tags ?? [],
    data_source: record.data_source,
    seniority_level: record.seniority_level ?? null,
    employment_type: record.employment_type ?? null,
    job_description: record.job_description,
  };
}

function toStoredJob(record: ValidJobRecord, hash: string, vector: Float32Array): StoredJob {
  const job = normalized(record);
  const terms = rankingTerms(record.job_title ?? "", record.job_description);
  return {
    ...job,
    publish_ts: parseDateTime(record.publish_time)!,
    content_hash: hash,
    ...terms,
    result_json: JSON.stringify({ id: job.id, ...resultFields(job), ...terms }),
    vector,
  };
}

/** The result fields of spec §2.1 but score and description, in its order, unknown ones absent. */
function resultFields(job: ReturnType<typeof normalized>): Omit<JobResult, "score"> {
  return {
    ...present("job_title", job.job_title),
    ...present("city", job.city),
    ...present("company_name", job.company_name),
    publish_time: job.publish_time,
    ...present("base_salary", job.base_salary),
    job_url: job.job_url,
    job_tags: job.job_tags,
    data_source: job.data_source,
    ...present("seniority_level", job.seniority_level),
    ...present("employment_type", job.employment_type),
  };
}

function present<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value === null || value === "" ? {} : ({ [key]: value } as Record<K, string>);
}
