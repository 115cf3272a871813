import { formatSummary, ingestRecords } from "../ingest/ingest.ts";
import type { Logger } from "../log.ts";
import type { Embedder } from "../search/embedder.ts";
import type { JobStore } from "../search/store.ts";
import { generateDemoPostings } from "./generate.ts";

/** Fills an empty table with the generated demo postings; leaves a table with any posting alone. */
export async function seedDemoData(deps: { store: JobStore; embedder: Embedder }, log: Logger): Promise<void> {
  if ((await deps.store.count()) > 0) return;
  log.info("empty table: loading the generated demo postings (DEMO_DATA=false turns this off)");
  const postings = generateDemoPostings();
  const summary = await ingestRecords(deps, postings.map((value, i) => ({ ref: `demo posting ${i + 1}`, value })));
  log.info(formatSummary(summary));
}
