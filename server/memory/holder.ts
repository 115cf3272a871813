import type * as lancedb from "@lancedb/lancedb";
import type { MemoryCopy, MemoryCopyHolder } from "../store/store.ts";
import { buildMemoryCopy } from "./copy.ts";
import { releaseFreedMemory } from "./trim.ts";

/*
 * The in-memory copy of the table (memory/copy.ts), one version at a time: built in the background
 * when the version changes and swapped in whole once built. Until then, and for a table larger than
 * the bound, searches go to LanceDB. Each server process holds its own: it is derived from the table,
 * rebuilt in a few seconds, never a second source of truth. Its setting and log lines keep their
 * first names: HOT_PATH_MAX_POSTINGS, "hot path ready|skipped|build failed" (and `hot_path` at start).
 */

export interface MemoryCopyOptions {
  /** Tables with more postings than this are not held (0 = never); LanceDB answers their searches. */
  maxPostings: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/** What openStore's `memoryCopy` option takes: the in-memory copy for tables up to `maxPostings` (none for 0). */
export function memoryCopyUpTo(maxPostings: number): ((table: lancedb.Table) => MemoryCopyHolder) | undefined {
  return maxPostings > 0 ? (table) => createMemoryCopyHolder(table, { maxPostings }) : undefined;
}

export function createMemoryCopyHolder(table: lancedb.Table, options: MemoryCopyOptions): MemoryCopyHolder & { at(version: number): MemoryCopy | undefined } {
  let held: MemoryCopy | undefined;
  let building: Promise<void> | undefined;
  let skipped: { version: number; reason: string } | undefined;
  let stopped = false;

  const build = async (): Promise<void> => {
    for (let attempt = 0; attempt < 3 && !stopped; attempt++) {
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
      const copy = await buildMemoryCopy(table, version);
      // The rows read are this version's only when no write came in between.
      if ((await table.version()) !== version) continue;
      held = copy;
      skipped = undefined;
      // The build's reads are garbage now: collect them and give their pages back before serving.
      Bun.gc(true);
      releaseFreedMemory();
      options.log?.("hot path ready", { version, postings: copy.postings, mb: Math.round(copy.bytes / 2 ** 20), ms: Math.round(performance.now() - started) });
      return;
    }
  };
  const start = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    building ??= build()
      .catch((error: unknown) => options.log?.("hot path build failed", { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => (building = undefined));
    return building;
  };

  return {
    at(version) {
      if (held?.version === version) return held;
      if (options.maxPostings > 0 && !stopped && skipped?.version !== version) void start();
      return undefined;
    },
    async warm() {
      if (options.maxPostings <= 0) return;
      // A build already under way may have read an older version and be past its last look at the table:
      // wait for it, then build again until the current version is held (or skipped).
      // A closed table (the server stopped meanwhile) ends the wait as a failed build does.
      for (let attempt = 0; attempt < 3 && !stopped; attempt++) {
        const version = await table.version().catch(() => undefined);
        if (version === undefined || held?.version === version || skipped?.version === version) return;
        await start();
      }
    },
    async stop() {
      stopped = true;
      await building;
    },
    state() {
      if (held) return { version: held.version, postings: held.postings, bytes: held.bytes };
      return skipped ? { skipped: skipped.reason } : undefined;
    },
  };
}
