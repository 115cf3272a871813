import { formatSummary, ingestRecords } from "../ingest/ingest.ts";
import type { Logger } from "../log.ts";
import type { Embedder } from "../embedding/embedder.ts";
import type { JobStore } from "../store/store.ts";
import type { WriteLock } from "../store/write-lease.ts";
import { generateDemoPostings } from "./generate.ts";

/**
 * Fills an empty table with the generated demo postings; leaves a table with any posting alone,
 * and one that a load is writing to right now (it will not stay empty).
 */
export async function seedDemoData(deps: { store: JobStore; embedder: Embedder; lock: WriteLock }, log: Logger): Promise<void> {
  if ((await deps.store.count()) > 0) return;
  const lease = await deps.lock.tryAcquire("demo data");
  if (lease === undefined) {
    log.info("empty table, but a load is writing to it: no demo data");
    return;
  }
  try {
    await deps.store.refresh();
    if ((await deps.store.count()) > 0) return;
    log.info("empty table: loading the generated demo postings (DEMO_DATA=false turns this off)");
    const postings = generateDemoPostings();
    const summary = await ingestRecords(deps, postings.map((value, i) => ({ ref: `demo posting ${i + 1}`, value })), { lease });
    log.info(formatSummary(summary));
  } finally {
    await lease.release();
  }
}
