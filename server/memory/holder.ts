import type * as lancedb from "@lancedb/lancedb";
import type { VersionCache } from "../store/store.ts";
import { buildSnapshot, type Snapshot } from "./copy.ts";

/*
 * The in-memory path of searches: a snapshot of the table's current version (memory/snapshot.ts),
 * built in the background when the version changes and swapped in whole once built. Until then, and
 * for a table larger than the bound, searches go to LanceDB. Each server process holds its own: it
 * is derived from the table, rebuilt in a few seconds, never a second source of truth.
 */

/** The default bound: ~300k postings of the shared data's kind take ~2 GB in memory (docs/performance.md). */
export const HOT_PATH_MAX_POSTINGS = 300_000;

export interface HotPathOptions {
  /** Tables with more postings than this are not held (0 = never); LanceDB answers their searches. */
  maxPostings: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/** What openStore's `hotPath` option takes: the in-memory path for tables up to `maxPostings` (none for 0). */
export function hotPathUpTo(maxPostings: number): ((table: lancedb.Table) => VersionCache) | undefined {
  return maxPostings > 0 ? (table) => createHotPath(table, { maxPostings }) : undefined;
}

export function createHotPath(table: lancedb.Table, options: HotPathOptions): VersionCache & { at(version: number): Snapshot | undefined } {
  let held: Snapshot | undefined;
  let building: Promise<void> | undefined;
  let skipped: { version: number; reason: string } | undefined;

  const build = async (): Promise<void> => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const version = await table.version();
      if (held?.version === version || skipped?.version === version) return;
      const postings = await table.countRows();
      if (postings > options.maxPostings) {
        skipped = { version, reason: `${postings} postings > HOT_PATH_MAX_POSTINGS ${options.maxPostings}` };
        held = undefined;
        options.log?.("hot path skipped", { version, postings, max: options.maxPostings });
        return;
      }
      // The old version serves no search any more: let it go before the new one is read (one held at a time).
      held = undefined;
      const started = performance.now();
      const snapshot = await buildSnapshot(table, version);
      // The rows read are this version's only when no write came in between.
      if ((await table.version()) !== version) continue;
      held = snapshot;
      skipped = undefined;
      options.log?.("hot path ready", { version, postings: snapshot.postings, mb: Math.round(snapshot.bytes / 2 ** 20), ms: Math.round(performance.now() - started) });
      return;
    }
  };
  const start = (): Promise<void> => {
    building ??= build()
      .catch((error: unknown) => options.log?.("hot path build failed", { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => (building = undefined));
    return building;
  };

  return {
    at(version) {
      if (held?.version === version) return held;
      if (options.maxPostings > 0 && skipped?.version !== version) void start();
      return undefined;
    },
    async warm() {
      if (options.maxPostings > 0) await start();
    },
    state() {
      if (held) return { version: held.version, postings: held.postings, bytes: held.bytes };
      return skipped ? { skipped: skipped.reason } : undefined;
    },
  };
}
