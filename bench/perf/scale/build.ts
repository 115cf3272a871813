import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { Table as ArrowTable, tableFromIPC } from "apache-arrow";
import { ensureIndexes } from "../../../server/store/indexes.ts";
import { jobsSchema, TABLE_NAME } from "../../../server/store/schema.ts";
import { MODELS_DIR } from "../suite/dataset.ts";
import type { WorkerReply, WorkerRequest } from "./worker.ts";

/** How the scale table was made; recorded beside it, so a table of another recipe is rebuilt, not reused. */
export interface ScaleBuild {
  recipe: string;
  postings: number;
  workers: number;
  /** Recombining, embedding, row building and writing, wall clock. */
  writeSeconds: number;
  /** The embedder's own time, summed over the workers. */
  embedSeconds: number;
  /** Scalar and full-text indexes (the service's ensureIndexes), wall clock. */
  scalarIndexSeconds: number;
}

/**
 * The table of `postings` recombined postings in `dir` (recombine.ts), built once with one worker
 * per core and reused while its recipe and row count hold; a reused table loses its vector index
 * (the caller times the build). Returns how it was built, from the marker when reused.
 */
export async function ensureScaleTable(sourceDir: string, dir: string, postings: number, modelId: string, dimension: number, log: (line: string) => void): Promise<ScaleBuild> {
  const marker = join(dir, MARKER);
  if (existsSync(marker)) {
    const built = JSON.parse(readFileSync(marker, "utf8")) as ScaleBuild;
    const db = await lancedb.connect(dir);
    const table = await db.openTable(TABLE_NAME);
    const complete = built.recipe === RECIPE && built.postings === postings && (await table.countRows()) === postings;
    if (complete) {
      for (const index of await table.listIndices()) if (index.columns.includes("vector")) await table.dropIndex(index.name);
    }
    table.close();
    db.close();
    if (complete) return built;
  }
  rmSync(dir, { recursive: true, force: true });
  const db = await lancedb.connect(dir);
  const schema = jobsSchema(modelId, dimension);
  const table = await db.createEmptyTable(TABLE_NAME, schema, { mode: "create" });
  try {
    const started = performance.now();
    const workers = Math.max(1, cpus().length);
    let embedMs = 0;
    let pending: ArrowTable[] = [];
    let pendingRows = 0;
    let written = 0;
    const flush = async () => {
      if (pendingRows === 0) return;
      await table.add(new ArrowTable(pending.flatMap((t) => t.batches)) as never);
      written += pendingRows;
      pending = [];
      pendingRows = 0;
      const seconds = (performance.now() - started) / 1000;
      log(`scale table: ${written.toLocaleString("en-US")} of ${postings.toLocaleString("en-US")} postings written, ${Math.round(written / seconds)}/s`);
    };
    await runWorkers(sourceDir, postings, workers, async (reply) => {
      embedMs += reply.embedMs;
      const part = tableFromIPC(reply.ipc);
      pending.push(part as unknown as ArrowTable);
      pendingRows += part.numRows;
      if (pendingRows >= WRITE_ROWS) await flush();
    });
    await flush();
    const writeSeconds = (performance.now() - started) / 1000;
    const indexStarted = performance.now();
    await ensureIndexes(table);
    const build: ScaleBuild = {
      recipe: RECIPE, postings, workers, writeSeconds, embedSeconds: embedMs / 1000, scalarIndexSeconds: (performance.now() - indexStarted) / 1000,
    };
    writeFileSync(marker, `${JSON.stringify(build, null, 2)}\n`);
    return build;
  } finally {
    table.close();
    db.close();
  }
}

// --- internal ---

const MARKER = "scale-build.json";
const RECIPE = "recombined-embedded-v1";
/** Postings a worker builds per request. */
const CHUNK = 4000;
/** Postings per table.add (a fragment each): few, large fragments, as a load's optimize() leaves them. */
const WRITE_ROWS = 100_000;

/** Hands out chunks of [0, postings) to `count` workers; `onChunk` runs one reply at a time, in arrival order. */
async function runWorkers(sourceDir: string, postings: number, count: number, onChunk: (reply: Extract<WorkerReply, { ipc: Uint8Array }>) => Promise<void>): Promise<void> {
  let next = 0;
  let chain = Promise.resolve();
  let failure: unknown;
  await Promise.all(
    Array.from({ length: count }, () =>
      new Promise<void>((resolve, reject) => {
        const worker = new Worker(new URL("./worker.ts", import.meta.url));
        const send = (request: WorkerRequest) => worker.postMessage(request);
        const ask = () => {
          if (next >= postings || failure) {
            worker.terminate();
            chain.then(() => resolve(), reject);
            return;
          }
          const start = next;
          next = Math.min(postings, next + CHUNK);
          send({ start, end: next });
        };
        worker.onerror = (event) => {
          failure = event.error ?? new Error(event.message);
          worker.terminate();
          reject(failure);
        };
        worker.onmessage = (event: MessageEvent<WorkerReply>) => {
          const reply = event.data;
          if ("ready" in reply) return ask();
          chain = chain.then(() => onChunk(reply));
          chain.catch((error) => (failure = error));
          ask();
        };
        send({ init: { sourceDir, modelsDir: MODELS_DIR } });
      }),
    ),
  );
  await chain;
}
