import type { ValidJobRecord } from "../../shared/job.ts";
import { parseDateTime } from "../../shared/time.ts";
import type { Embedder } from "../embedding/embedder.ts";
import { byPublication } from "../store/clusters.ts";
import type { StoredJob } from "../store/schema.ts";
import type { JobStore } from "../store/store.ts";
import { updateVectorIndex, VECTOR_INDEX_MIN_ROWS, type IndexUpdate, type IndexWork } from "../store/index-maintenance.ts";
import { writeLock, type LeaseHolder, type WriteLease, type WriteLock } from "../store/write-lease.ts";
import { openRecords, type RawRecord, type ReadOptions, type RecordSource } from "./read.ts";
import { acceptRecord, PROBLEMS_KEPT, validateRecord } from "./validate.ts";
import { ClusterAssigner, openAssigner } from "./clusters.ts";
import { contentHash, toStoredJob } from "./rows.ts";
import { signature } from "./same-job.ts";

export interface IngestOptions {
  /** Abort before writing anything when any record is invalid. */
  strict?: boolean;
  batchSize?: number;
  /** Called after each batch with the records handled so far and the total (estimated from the bytes read, for a file). */
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
  /** Postings whose city held a street address (left empty) or a postal code (cut off): see city.ts. */
  citiesCleaned: number;
  /** The first PROBLEMS_KEPT invalid records (`invalid` counts them all). */
  problems: IngestProblem[];
  /** What the load did to the ANN index (work undefined: nothing needed). */
  index?: IndexUpdate;
  seconds: number;
}

export class StrictIngestError extends Error {
  /** `problems`: the first PROBLEMS_KEPT of `count` invalid records. */
  constructor(readonly problems: IngestProblem[], readonly count = problems.length) {
    super(`${count} invalid record(s); --strict given, nothing was written`);
    this.name = "StrictIngestError";
  }
}

export { PROBLEMS_KEPT };

/** Records to load: an array, or a file read as a stream (see openRecords). */
export type Records = readonly RawRecord[] | RecordSource;

/** Streams (see {@link openRecords} for formats and bounds), validates and upserts a file of postings; see {@link ingestRecords}. */
export async function ingestFile(
  deps: IngestDeps,
  path: string,
  options: IngestOptions & ReadOptions = {},
): Promise<IngestSummary> {
  return ingestRecords(deps, await openRecords(path, { format: options.format, map: options.map }), options);
}

/**
 * Validates each record and, holding the table's write lease (waiting for another writer unless
 * `wait: false`), upserts the valid ones by id in batches as they are read: new ids are inserted,
 * changed postings replaced, identical ones left alone (neither embedded nor written), so re-running
 * a load changes nothing. Only the current batch is kept in memory (and a hash per id seen, ~14 MB a million, to
 * count repeats: a later copy of an id replaces the earlier one and is counted as a duplicate). Each
 * batch is one commit, so a load killed at any point leaves the table at a batch boundary, and
 * running it again completes it. Then it compacts, updates the other indexes and builds or rebuilds
 * the ANN index when the table needs it, so a server never has to build it on start. With `strict`,
 * reads everything once first and throws StrictIngestError before any write.
 */
export async function ingestRecords(deps: IngestDeps, records: Records, options: IngestOptions = {}): Promise<IngestSummary> {
  const started = performance.now();
  if (options.strict) await checkAll(records);
  const summary: IngestSummary = {
    inserted: 0, updated: 0, unchanged: 0, invalid: 0, duplicates: 0, citiesCleaned: 0, problems: [], index: { work: undefined, rows: 0, ms: 0 }, seconds: 0,
  };
  const lease = options.lease ?? (await (deps.lock ?? writeLock(deps.store.location)).acquire({ what: "load", wait: options.wait, onWait: options.onWait }));
  try {
    // Another writer may have committed while this one waited.
    await deps.store.refresh();
    await writeBatches(deps, records, summary, options);
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

/** The summary line every load ends with (a replacing load's says how many postings it removed). */
export function formatSummary(summary: IngestSummary & { removed?: number }): string {
  const skipped = summary.invalid + summary.duplicates + summary.unchanged;
  const handled = summary.inserted + summary.updated + skipped;
  const rate = summary.seconds > 0 ? Math.round(handled / summary.seconds) : handled;
  const { work, ms } = summary.index ?? { work: undefined, ms: 0 };
  const index = work === undefined ? "" : `; ${work === "build" ? "built" : "rebuilt"} the vector index in ${(ms / 1000).toFixed(1)} s`;
  const removed = summary.removed === undefined ? "" : `, ${summary.removed} removed (missing from the file)`;
  const cities = summary.citiesCleaned > 0 ? `; ${summary.citiesCleaned} street addresses or postal codes taken out of city` : "";
  return `ingested ${summary.inserted} new, ${summary.updated} updated, ${skipped} skipped${removed} in ${summary.seconds.toFixed(1)} s (${rate}/s)${index}${cities}`;
}

// --- internal ---

/** Throws StrictIngestError when any record is invalid. */
async function checkAll(records: Records): Promise<void> {
  const problems: IngestProblem[] = [];
  let count = 0;
  for await (const record of records) {
    const checked = validateRecord(record);
    if (checked.ok) continue;
    count++;
    if (problems.length < PROBLEMS_KEPT) problems.push({ ref: record.ref, problem: checked.problem });
  }
  if (count > 0) throw new StrictIngestError(problems, count);
}

/** A valid record waiting in the current batch; `repeat` when an earlier batch held its id. */
interface Pending {
  record: ValidJobRecord;
  repeat: boolean;
}

/** The batches as the records arrive, the finishing steps and the ANN index, under the write lease. */
async function writeBatches(deps: IngestDeps, records: Records, summary: IngestSummary, options: IngestOptions): Promise<void> {
  const batchSize = options.batchSize ?? 2000;
  const seen = new Set<bigint>();
  let batch = new Map<string, Pending>();
  let read = 0;
  // The table's clusters, for the postings of this load to join (a table loaded before clusters is assigned first).
  const { assigner, migrated } = await openAssigner(deps.store);
  // For a file the total is estimated from the share of its bytes read so far.
  const total = () => {
    if (!("fraction" in records)) return records.length;
    const share = records.fraction();
    return share >= 1 ? read : Math.max(read, Math.round(read / Math.max(share, 1e-9)));
  };
  const flush = async () => {
    await writeBatch(deps, [...batch.values()], summary, assigner);
    for (const id of batch.keys()) seen.add(Bun.hash(id) as bigint);
    batch = new Map();
    options.onProgress?.(read, total());
  };
  for await (const raw of records) {
    read++;
    const record = acceptRecord(raw, summary);
    if (record === undefined) continue;
    const { id } = record;
    const earlier = batch.get(id);
    const repeat = earlier?.repeat ?? seen.has(Bun.hash(id) as bigint);
    if (earlier !== undefined || repeat) summary.duplicates++;
    batch.delete(id); // re-insert so the last copy keeps its place
    batch.set(id, { record, repeat });
    if (batch.size >= batchSize) await flush();
  }
  if (batch.size > 0) await flush();
  options.onProgress?.(read, total());
  // A load killed after its writes left the table unfinished: the re-run finishes it.
  if (summary.inserted + summary.updated + migrated > 0 || (await deps.store.loadPending())) await deps.store.finishLoad();
  summary.index = await updateVectorIndex(deps.store, options.vectorIndexMinRows ?? VECTOR_INDEX_MIN_ROWS, options.onIndex);
}

/** One commit: what changed is embedded and upserted; a repeat of an earlier batch's id is not counted again. */
async function writeBatch(deps: IngestDeps, pending: Pending[], summary: IngestSummary, assigner: ClusterAssigner): Promise<void> {
  const { rows, stored } = await changedRows(deps, pending.map(({ record }) => record), undefined, assigner);
  await deps.store.upsert(rows);
  const changed = new Set(rows.map((row) => row.id));
  for (const { record, repeat } of pending) {
    if (repeat) continue;
    if (!changed.has(record.id)) summary.unchanged++;
    else if (stored.has(record.id)) summary.updated++;
    else summary.inserted++;
  }
}

/**
 * The rows to write for `records` (distinct ids): the new and changed ones, embedded, batch by batch,
 * each in its cluster (`assigner`: the table's, else one of these records alone), with the content
 * hash of each id already stored. Identical postings are neither embedded nor written.
 */
export async function changedRows(
  deps: IngestDeps, records: ValidJobRecord[], onProgress?: (done: number, total: number) => void,
  assigner = new ClusterAssigner([]),
): Promise<{ rows: StoredJob[]; stored: Map<string, string> }> {
  const rows: StoredJob[] = [];
  const stored = new Map<string, string>();
  // Assigned in the order a later load reads the stored postings (store/clusters.ts: by load, then
  // publication, then id), so that a load killed and run again clusters as one run does.
  const ordered = records
    .map((record) => ({ record, id: record.id, publish_ts: parseDateTime(record.publish_time)! }))
    .sort(byPublication)
    .map(({ record }) => record);
  for (let i = 0; i < ordered.length; i += EMBED_BATCH) {
    const batch = ordered.slice(i, i + EMBED_BATCH).map((record) => ({ record, hash: contentHash(record) }));
    for (const [id, hash] of await deps.store.existingHashes(batch.map(({ record }) => record.id))) stored.set(id, hash);
    const changed = batch.filter(({ record, hash }) => stored.get(record.id) !== hash);
    const vectors = await deps.embedder.embedDocuments(changed.map(({ record }) => documentText(record)));
    changed.forEach(({ record, hash }, j) => {
      const sig = signature(record);
      rows.push(toStoredJob(record, hash, vectors[j]!, { ...assigner.assign(record.id, sig, hash), sig }));
    });
    onProgress?.(Math.min(i + EMBED_BATCH, ordered.length), ordered.length);
  }
  return { rows, stored };
}

/** Records hashed, looked up and embedded together (the look-up is one IN list). */
const EMBED_BATCH = 2000;
