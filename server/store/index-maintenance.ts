import { join } from "node:path";
import type { Logger } from "../log.ts";
import { sideFile } from "./table-location.ts";
import type { JobStore } from "./store.ts";
import type { VectorIndexState } from "./indexes.ts";

/** Default of VECTOR_INDEX_MIN_ROWS: below it exact search is fast enough and an index would not pay. */
export const VECTOR_INDEX_MIN_ROWS = 20_000;

/** What the ANN index needs: a first build, a rebuild in one piece, or nothing. */
export type IndexWork = "build" | "rebuild" | undefined;

export interface IndexUpdate {
  work: IndexWork;
  /** Rows in the table when the work started. */
  rows: number;
  ms: number;
}

/**
 * Whether the ANN index needs work: a first build once the table holds `minRows` postings, or a
 * rebuild in one piece once loads since the last build (folded in by `optimize()` as extra
 * segments, each searched separately) added 20% or more rows or made 5 segments.
 */
export async function vectorIndexWork(store: JobStore, minRows: number): Promise<IndexWork> {
  const state = await store.vectorIndexState();
  if (state === undefined) return (await store.count()) >= minRows ? "build" : undefined;
  return needsRebuild(state, await builtRows(store)) ? "rebuild" : undefined;
}

/**
 * Does what {@link vectorIndexWork} says, for a caller holding the write lease: a load after its
 * writes, or the build process the server starts. Searches go on meanwhile (they read the previous
 * version until the new index is committed). Records the rows indexed, for the next decision.
 */
export async function updateVectorIndex(store: JobStore, minRows: number, onStart?: (work: NonNullable<IndexWork>, rows: number) => void): Promise<IndexUpdate> {
  const started = performance.now();
  const work = await vectorIndexWork(store, minRows);
  const rows = await store.count();
  if (work === undefined) return { work, rows, ms: 0 };
  onStart?.(work, rows);
  if (work === "build") await store.ensureVectorIndex(minRows);
  else await store.rebuildVectorIndex();
  await sideFile(store.location, BUILT_FILE).write(JSON.stringify({ rows }));
  return { work, rows, ms: Math.round(performance.now() - started) };
}

/**
 * Keeps the ANN index in shape while the server runs: at start and then every 30 s it asks
 * {@link vectorIndexWork}, and when there is work it runs it in a separate process at the lowest
 * CPU priority (`nice -n 19`), which takes the table's write lease (a load in progress builds the
 * index itself; the process then finds nothing to do). So a build never competes with searches
 * for the event loop, and on a busy machine the kernel gives searches the CPU first. `redisUrl`
 * guards object-store tables across machines. Returns a stop function that ends a build in flight
 * (nothing is committed then; the next start builds again), and whether a build runs now.
 */
export function maintainVectorIndex(store: JobStore, minRows: number, log: Logger, everyMs = CHECK_EVERY_MS, redisUrl?: string): IndexMaintainer {
  let running: Promise<void> | undefined;
  let child: Bun.Subprocess<"pipe", "pipe", "pipe"> | undefined;
  let stopped = false;
  const check = () => {
    running ??= (async () => {
      try {
        const work = await vectorIndexWork(store, minRows);
        if (work === undefined || stopped) return;
        log.info("building the ANN index in a background process", { work });
        child = Bun.spawn(["nice", "-n", "19", process.execPath, BUILD_SCRIPT], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
        child.stdin.write(JSON.stringify({ location: store.location, minRows, redisUrl } satisfies BuildJob));
        await child.stdin.end();
        const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
        if (stopped) return;
        if (code !== 0) throw new Error(err.trim().split("\n").at(-1) || `exit code ${code}`);
        const done = JSON.parse(out) as IndexUpdate | { busy: true };
        if ("busy" in done) return log.info("a load holds the write lease: it brings the ANN index up to date itself");
        // The lease came free only after a load had brought the index up to date itself.
        if (done.work === undefined) return log.info("the ANN index is up to date: a load brought it up to date meanwhile");
        await store.refresh();
        if (done.work === "build") log.info("built the ANN index on the vectors", { rows: done.rows, ms: done.ms });
        else log.info("rebuilt the ANN index after loads", { rows: done.rows, ms: done.ms });
      } catch (error) {
        log.warn("could not build the ANN index; searches stay exact", { error });
      } finally {
        child = undefined;
        running = undefined;
      }
    })();
  };
  check();
  const timer = setInterval(check, everyMs);
  return {
    building: () => child !== undefined,
    async stop() {
      stopped = true;
      clearInterval(timer);
      child?.kill();
      await running;
    },
  };
}

export interface IndexMaintainer {
  building(): boolean;
  stop(): Promise<void>;
}

/** What the server hands its build process on stdin (not argv: storage options may hold secrets). */
export interface BuildJob {
  location: JobStore["location"];
  minRows: number;
  redisUrl?: string | undefined;
}

// --- internal ---

/** How often the server looks at the table's size and its ANN index. */
const CHECK_EVERY_MS = 30_000;
/** Rebuild once rows added since the last build reach this share of the index... */
const REBUILD_GROWTH = 0.2;
/** ...or loads have split it into this many segments. */
const REBUILD_SEGMENTS = 5;
/** Beside the table: how many rows the last build indexed. */
const BUILT_FILE = "vector-index.json";
const BUILD_SCRIPT = join(import.meta.dir, "index-build.ts");

async function builtRows(store: JobStore): Promise<number | undefined> {
  const text = await sideFile(store.location, BUILT_FILE).read().catch(() => undefined);
  const rows = text === undefined ? undefined : Number((JSON.parse(text) as { rows?: unknown }).rows);
  return rows !== undefined && Number.isFinite(rows) ? rows : undefined;
}

function needsRebuild(state: VectorIndexState, built: number | undefined): boolean {
  const rows = state.indexedRows + state.unindexedRows;
  if (state.segments >= REBUILD_SEGMENTS || state.unindexedRows >= REBUILD_GROWTH * rows) return true;
  if (state.segments === 1) return false;
  // An index built before the row count was recorded: one rebuild brings it back to one segment.
  return built === undefined || rows - built >= REBUILD_GROWTH * built;
}
