/**
 * A worker of the scale build (build.ts): recombines postings (recombine.ts) and turns them
 * into table rows through the ingest's own code (changedRows: documentText embedded by the
 * service's embedder, hash, ranking terms, result_json), returned as Arrow IPC. The static
 * embedder's tokenizer is the slow part (~1 ms a posting), so the build runs one worker per core.
 */
import { createRequire } from "node:module";
import { makeArrowTable } from "@lancedb/lancedb";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { changedRows } from "../../../server/ingest/ingest.ts";
import { jobsSchema } from "../../../server/store/schema.ts";
import type { JobStore } from "../../../server/store/store.ts";
import { loadSourcePostings, recombinedRecord } from "./recombine.ts";

export type WorkerRequest = { init: { sourceDir: string; modelsDir: string } } | { start: number; end: number };
export type WorkerReply = { ready: true } | { start: number; end: number; ipc: Uint8Array; embedMs: number; totalMs: number };

declare const self: Worker;

let state: Promise<{ source: Awaited<ReturnType<typeof loadSourcePostings>>; deps: Parameters<typeof changedRows>[0] }> | undefined;

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if ("init" in request) {
    const { sourceDir, modelsDir } = request.init;
    state = (async () => {
      const [source, embedder] = await Promise.all([loadSourcePostings(sourceDir), loadEmbedder({ model: "static", allowRemote: false, modelsDir })]);
      // Every synthetic id is new: the ingest's look-up of stored hashes finds nothing.
      const store = { existingHashes: async () => new Map<string, string>() } as unknown as JobStore;
      return { source, deps: { store, embedder: timed(embedder) } };
    })();
    await state;
    self.postMessage({ ready: true } satisfies WorkerReply);
    return;
  }
  const { source, deps } = await state!;
  const started = performance.now();
  embedMs = 0;
  const records = Array.from({ length: request.end - request.start }, (_, j) => recombinedRecord(source, request.start + j));
  const { rows } = await changedRows(deps, records);
  const schema = jobsSchema(deps.embedder.modelId, deps.embedder.dimension);
  const table = makeArrowTable(rows.map((row) => ({ ...row, vector: Array.from(row.vector) })), { schema: schema as never });
  const ipc = tableToIPC(table) as Uint8Array;
  const reply: WorkerReply = { start: request.start, end: request.end, ipc, embedMs, totalMs: performance.now() - started };
  self.postMessage(reply);
};

// --- internal ---

/** LanceDB builds its tables with the CommonJS apache-arrow; the ESM one's tableToIPC does not know them (writes nothing). */
const { tableToIPC } = createRequire(import.meta.url)("apache-arrow") as { tableToIPC: (table: unknown) => Uint8Array };

let embedMs = 0;

/** The embedder with its time counted, to report the embedding rate apart from the rest of the row building. */
function timed(embedder: Awaited<ReturnType<typeof loadEmbedder>>): Awaited<ReturnType<typeof loadEmbedder>> {
  return {
    ...embedder,
    async embedDocuments(texts) {
      const started = performance.now();
      const vectors = await embedder.embedDocuments(texts);
      embedMs += performance.now() - started;
      return vectors;
    },
  };
}
