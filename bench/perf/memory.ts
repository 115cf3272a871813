/**
 * The server's memory with 1 and 2 processes: `bun bench/perf/memory.ts [--dir DATA_DIR] [--seconds 30] [--processes 1,2]`.
 *
 * On a copy of a table (default: the relevance table bench/.data/eval, 29,513 postings), in the
 * default configuration but for a key allowed as many requests as the load sends: the RSS of every
 * server process together (PSS beside it: pages the processes share count once) once the in-memory
 * copy is built, the peak while 16 clients send a sustained mix including expensive requests (every
 * facet, the deepest page, full detail, a new query each time so no answer is cached), and after it.
 * Prints one line per process count and the targets of issue 24 item 2 with ✓/✗.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as lancedb from "@lancedb/lancedb";
import { TABLE_NAME } from "../../server/store/schema.ts";
import { ROOT } from "./suite/dataset.ts";
import { createBenchKey, spawnBenchServer } from "./suite/server.ts";
import { QUERIES } from "./suite/requests.ts";


export interface MemoryRun {
  processes: number;
  postings: number;
  idleMb: number;
  idlePssMb: number;
  peakMb: number;
  afterMb: number;
  afterPssMb: number;
  requests: number;
  statuses: Record<number, number>;
}

/** Spawns the server on `dir` with `processes` processes and measures its memory idle, under the mix and after. */
export async function measureMemory(dir: string, processes: number, seconds: number, connections: number): Promise<MemoryRun> {
  const key = await createBenchKey(dir);
  const server = await spawnBenchServer(dir, key.key, { SERVER_PROCESSES: String(processes), MAX_IN_FLIGHT_PER_KEY: "1000" });
  try {
    const idle = treeMemory(server.pid);
    const statuses: Record<number, number> = {};
    let requests = 0;
    let peakMb = idle.rssMb;
    const ends = Date.now() + seconds * 1000;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, treeMemory(server.pid).rssMb)), 200);
    await Promise.all(
      Array.from({ length: connections }, async (_, worker) => {
        for (let i = 0; Date.now() < ends; i++) {
          const status = await sendMixed(server.url, key.key, worker, i);
          statuses[status] = (statuses[status] ?? 0) + 1;
          requests++;
        }
      }),
    );
    clearInterval(sampler);
    // Garbage is collected and freed pages given back on the server's own schedule (memory/trim.ts: every 10 s).
    await Bun.sleep(12_000);
    const after = treeMemory(server.pid);
    return {
      processes,
      postings: await countPostings(dir),
      idleMb: round(idle.rssMb),
      idlePssMb: round(idle.pssMb),
      peakMb: round(Math.max(peakMb, after.rssMb)),
      afterMb: round(after.rssMb),
      afterPssMb: round(after.pssMb),
      requests,
      statuses,
    };
  } finally {
    await server.stop();
    await key.revoke();
  }
}

/** RSS and PSS (MB) of a process and its descendants, from /proc. */
export function treeMemory(pid: number): { rssMb: number; pssMb: number } {
  let rss = 0;
  let pss = 0;
  for (const id of [pid, ...descendants(pid)]) {
    try {
      const rollup = readFileSync(`/proc/${id}/smaps_rollup`, "utf8");
      rss += Number(rollup.match(/^Rss:\s+(\d+) kB/m)?.[1] ?? 0);
      pss += Number(rollup.match(/^Pss:\s+(\d+) kB/m)?.[1] ?? 0);
    } catch {
      // A process that just exited.
    }
  }
  return { rssMb: rss / 1024, pssMb: pss / 1024 };
}

// --- internal ---

/** One request of the mix: a plain search, the deepest page with every facet, or full detail of a deep page. */
export async function sendMixed(url: string, key: string, worker: number, i: number): Promise<number> {
  const q = `${QUERIES[(worker + i) % QUERIES.length]} ${EXTRA[(worker * 7 + i) % EXTRA.length]}`;
  const kind = i % 4;
  const body =
    kind === 0 ? { q } :
    kind === 1 ? { q, offset: 900, top_k: 100, facets: FACETS } :
    kind === 2 ? { q, offset: 500, top_k: 100, detail: "full" } :
    { q, top_k: 50, detail: "full", facets: FACETS };
  const response = await fetch(`${url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) }).catch(() => undefined);
  if (!response) return 0;
  await response.arrayBuffer();
  return response.status;
}

const FACETS = ["city", "country", "source", "seniority", "employment_type", "remote", "tags", "month", "salary"];
/** Words that make each query new (the result cache never answers), most of them known to the model. */
const EXTRA = ["remote", "senior", "junior", "startup", "london", "berlin", "contract", "lead", "cloud", "api", "team", "growth", "platform", "mobile", "data", "security", "linux", "sql", "go", "rust", "java", "aws", "design", "health", "finance", "games", "music", "travel", "energy", "robotics", "ai", "search"];

async function countPostings(dir: string): Promise<number> {
  const db = await lancedb.connect(dir);
  const table = await db.openTable(TABLE_NAME);
  const count = await table.countRows();
  table.close();
  db.close();
  return count;
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const task of safeList(`/proc/${pid}/task`)) {
    const children = safeRead(`/proc/${pid}/task/${task}/children`).split(" ").filter(Boolean).map(Number);
    for (const child of children) out.push(child, ...descendants(child));
  }
  return out;
}

function safeList(path: string): string[] {
  return existsSync(path) ? readdirSync(path) : [];
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function copyTable(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), "memory-bench-"));
  cpSync(dir, copy, { recursive: true });
  return copy;
}

function printRun(run: MemoryRun): void {
  console.log(
    `${run.processes} process(es), ${run.postings} postings: RSS idle ${run.idleMb} MB (PSS ${run.idlePssMb}), peak under load ${run.peakMb} MB, after ${run.afterMb} MB (PSS ${run.afterPssMb}); ` +
      `${run.requests} requests ${JSON.stringify(run.statuses)}; target ≤ 600 MB: ${run.peakMb <= 600 && run.afterMb <= 600 ? "✓" : "✗"}`,
  );
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      dir: { type: "string", default: join(ROOT, "bench/.data/eval") },
      seconds: { type: "string", default: "30" },
      processes: { type: "string", default: "1,2" },
      connections: { type: "string", default: "16" },
      copy: { type: "boolean", default: true },
    },
  });
  const dir = values.copy ? copyTable(values.dir!) : values.dir!;
  try {
    const runs: MemoryRun[] = [];
    for (const processes of values.processes!.split(",").map(Number)) {
      runs.push(await measureMemory(dir, processes, Number(values.seconds), Number(values.connections)));
      console.log(JSON.stringify(runs.at(-1)));
    }
    for (const run of runs) printRun(run);
  } finally {
    if (values.copy) rmSync(dir, { recursive: true, force: true });
  }
}
