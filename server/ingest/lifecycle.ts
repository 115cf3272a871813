import { AppError, invalidParameter } from "../../shared/errors.ts";
import type { ValidJobRecord } from "../../shared/job.ts";
import { idIn, publishedBefore, sourceIs } from "../store/filter.ts";
import { updateVectorIndex, VECTOR_INDEX_MIN_ROWS } from "../store/index-maintenance.ts";
import type { JobStore } from "../store/store.ts";
import { writeLock, type LeaseHolder, type WriteLock } from "../store/write-lease.ts";
import { changedRows, type IngestDeps, type IngestOptions, type IngestSummary, type Records } from "./ingest.ts";
import { acceptRecord } from "./validate.ts";
import { openAssigner } from "./clusters.ts";

/*
 * Removing postings: by id, by source or by publication time (`cli delete`), and replacing a source
 * with a file (`cli ingest --replace-source`: its postings missing from the file go). Both hold the
 * write lease and change the table in ONE commit, so a reader (or a kill at any point) sees the old
 * table or the new one, never half of the change: a delete is one LanceDB delete; a replace reads
 * and embeds the whole file first, then upserts what changed and deletes what is missing in one
 * merge. The finishing steps after it (compaction, indexes, term statistics) are marked pending
 * beside the table, as a load's are, and the next write finishes them if this one was killed.
 */

/** Which postings `delete` removes: exactly one of these. */
export interface DeleteSelector {
  ids?: string[];
  source?: string;
  /** Epoch seconds: postings published before it. */
  before?: number;
}

export interface DeleteOptions {
  dryRun?: boolean;
  wait?: boolean;
  onWait?: (holder: LeaseHolder | undefined) => void;
}

/**
 * Deletes the postings `selector` names (counts them only, with `dryRun`); returns how many and, for
 * ids, those the table did not hold (`missing`, in the order given).
 */
export async function deletePostings(deps: { store: JobStore; lock?: WriteLock }, selector: DeleteSelector, options: DeleteOptions = {}): Promise<{ deleted: number; seconds: number; missing: string[] }> {
  const started = performance.now();
  const where = await selection(deps.store, selector);
  const lease = await (deps.lock ?? writeLock(deps.store.location)).acquire({ what: "delete", wait: options.wait, onWait: options.onWait });
  try {
    await deps.store.refresh();
    const found = options.dryRun || selector.ids !== undefined ? await deps.store.idsWhere(where) : undefined;
    const held = new Set(found);
    const missing = selector.ids === undefined ? [] : [...new Set(selector.ids)].filter((id) => !held.has(id));
    const deleted = options.dryRun ? found!.length : await deps.store.remove(where);
    if (deleted > 0 || (await deps.store.loadPending())) await deps.store.finishLoad();
    return { deleted, seconds: (performance.now() - started) / 1000, missing };
  } finally {
    await lease.release();
  }
}

/** A load that also removes, from each source the file holds, the postings missing from the file. */
export interface ReplaceSummary extends IngestSummary {
  removed: number;
}

/**
 * Loads `records` and removes each of their sources' postings that they lack, in one commit.
 * Refuses (INVALID_PARAMETER, nothing written) to remove more than half of a source's postings
 * unless `force`: a truncated file must not wipe a source. Holds every valid posting of the file in
 * memory (with the vectors of those that changed) until the commit.
 */
export async function replaceSources(deps: IngestDeps, records: Records, options: IngestOptions & { force?: boolean } = {}): Promise<ReplaceSummary> {
  const started = performance.now();
  const summary: ReplaceSummary = {
    inserted: 0, updated: 0, unchanged: 0, invalid: 0, duplicates: 0, citiesCleaned: 0, problems: [], removed: 0, seconds: 0,
  };
  const valid = new Map<string, ValidJobRecord>();
  for await (const raw of records) {
    const record = acceptRecord(raw, summary);
    if (record === undefined) continue;
    if (valid.has(record.id)) summary.duplicates++;
    valid.set(record.id, record);
  }
  if (options.strict && summary.invalid > 0) throw invalidParameter(`${summary.invalid} invalid record(s); --strict given, nothing was written`);
  const lease = options.lease ?? (await (deps.lock ?? writeLock(deps.store.location)).acquire({ what: "load", wait: options.wait, onWait: options.onWait }));
  try {
    await deps.store.refresh();
    const removeIds = await missingFromFile(deps.store, valid, options.force ?? false);
    const { assigner, migrated } = await openAssigner(deps.store);
    const { rows, stored } = await changedRows(deps, [...valid.values()], options.onProgress, assigner);
    await deps.store.replace(rows, removeIds);
    const updated = rows.filter((row) => stored.has(row.id)).length;
    Object.assign(summary, { inserted: rows.length - updated, updated, unchanged: valid.size - rows.length, removed: removeIds.length });
    if (rows.length + removeIds.length + migrated > 0 || (await deps.store.loadPending())) await deps.store.finishLoad();
    summary.index = await updateVectorIndex(deps.store, options.vectorIndexMinRows ?? VECTOR_INDEX_MIN_ROWS, options.onIndex);
  } finally {
    if (!options.lease) await lease.release();
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

// --- internal ---

/** The predicate of a selector; a usage error unless exactly one selector is given, or for an unknown source. */
async function selection(store: JobStore, selector: DeleteSelector): Promise<string> {
  const given = [selector.ids, selector.source, selector.before].filter((value) => value !== undefined);
  if (given.length !== 1) throw invalidParameter("say which postings to delete: exactly one of --id, --source or --before");
  if (selector.ids !== undefined) {
    if (selector.ids.length === 0) throw invalidParameter("--id needs at least one id");
    return idIn(selector.ids);
  }
  if (selector.source !== undefined) {
    const { sources } = await store.facets();
    if (!sources.includes(selector.source)) throw invalidParameter(`--source must be one of: ${sources.join(", ") || "(no postings loaded)"}`);
    return sourceIs(selector.source);
  }
  return publishedBefore(selector.before!);
}

/** Ids of the file's sources that the file lacks; refuses to remove over half a source unless `force`. */
async function missingFromFile(store: JobStore, valid: Map<string, ValidJobRecord>, force: boolean): Promise<string[]> {
  const sources = new Set([...valid.values()].map((record) => record.data_source));
  const missing: string[] = [];
  for (const source of [...sources].sort()) {
    const stored = await store.idsWhere(sourceIs(source));
    const gone = stored.filter((id) => !valid.has(id));
    if (!force && gone.length * 2 > stored.length) {
      throw new AppError(
        "INVALID_PARAMETER",
        `--replace-source would remove ${gone.length} of the ${stored.length} postings of source ${source} (more than half); nothing was changed. Check that the file is complete, or pass --force`,
      );
    }
    missing.push(...gone);
  }
  return missing;
}
