import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { TABLE_NAME } from "../../../server/store/schema.ts";
import type { ScaleQuery } from "./queries.ts";
import { createBenchKey, spawnBenchServer } from "../suite/server.ts";

/** The service's memory on the scale table, and what each posting costs in it and on disk. */
export interface ScaleMemory {
  /** A server on an empty DATA_DIR after its first search: runtime, embedder, HTTP (no in-memory copy: nothing to hold). */
  emptyMb: number;
  /** A server on the scale table after its first search. */
  afterStartMb: number;
  /** The same server after the queries (hybrid searches, with and without their filters). */
  afterQueriesMb: number;
  /** (afterQueriesMb − emptyMb) / postings. */
  bytesPerPosting: number;
  /** The table on disk per posting: all columns and the current indexes (vector, scalar, full-text). */
  diskBytesPerPosting: number;
  /** The vector index on disk per posting. */
  vectorIndexBytesPerPosting: number;
}

/**
 * Spawns the server (as an operator does) on an empty DATA_DIR, then on `dir`, reads its RSS after the
 * first search and after `queries` as REST searches (text and filter, default top_k, hybrid), and
 * sizes the table's files. The vectors are 4 × dimension bytes of each posting on disk; LanceDB reads
 * them through the page cache, which RSS does not count.
 */
export async function measureServerMemory(dir: string, postings: number, queries: ScaleQuery[]): Promise<ScaleMemory> {
  const empty = mkdtempSync(join(tmpdir(), "scale-empty-"));
  try {
    // Without the in-memory copy: on an empty table it answers searches with a 500 (server/memory/vectors.ts).
    const emptyMb = await serverRss(empty, [], { HOT_PATH_MAX_POSTINGS: "0" });
    const [afterStartMb, afterQueriesMb] = await serverRss(dir, queries);
    const lance = join(dir, `${TABLE_NAME}.lance`);
    const db = await lancedb.connect(dir);
    const table = await db.openTable(TABLE_NAME);
    const indexes = await table.listIndices();
    table.close();
    db.close();
    // The current version's files only: earlier versions' vector indexes stay on disk until a cleanup.
    const indexBytes = (columns: (c: string[]) => boolean) =>
      indexes.filter((index) => columns(index.columns) && index.indexUuid).reduce((sum, index) => sum + bytesUnder(join(lance, "_indices", index.indexUuid!)), 0);
    const vectorBytes = indexBytes((c) => c.includes("vector"));
    return {
      emptyMb: emptyMb[0]!,
      afterStartMb: afterStartMb!,
      afterQueriesMb: afterQueriesMb!,
      bytesPerPosting: ((afterQueriesMb! - emptyMb[0]!) * 1048576) / postings,
      diskBytesPerPosting: (bytesUnder(join(lance, "data")) + indexBytes(() => true)) / postings,
      vectorIndexBytesPerPosting: vectorBytes / postings,
    };
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

// --- internal ---

/** RSS (MB) of a fresh server on `dataDir` after its first search, then after `queries` (when any). */
async function serverRss(dataDir: string, queries: ScaleQuery[], env: Record<string, string> = {}): Promise<number[]> {
  const key = await createBenchKey(dataDir);
  try {
    const server = await spawnBenchServer(dataDir, key.key, env);
    try {
      const rss = [server.rssMb()];
      if (queries.length === 0) return rss;
      for (const q of queries) {
        for (const filters of [{}, q.filter]) {
          const response = await fetch(`${server.url}/v1/search`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": key.key },
            body: JSON.stringify({ q: q.text, ...filters }),
          });
          if (response.status !== 200) throw new Error(`search "${q.text}" answered ${response.status}: ${await response.text()}`);
          await response.arrayBuffer();
        }
      }
      rss.push(server.rssMb());
      return rss;
    } finally {
      await server.stop();
    }
  } finally {
    await key.revoke();
  }
}

function bytesUnder(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}
