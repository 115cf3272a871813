/**
 * Where one server process's memory goes, stage by stage, in this process:
 * `bun --expose-gc bench/perf/memory-profile.ts --dir DATA_DIR` (a copy: the server may write to it).
 * Prints RSS, the JavaScript heap (bun:jsc) and the largest object kinds after each stage: runtime and
 * modules, the embedder, the table opened with the places read, the in-memory copy built, every posting
 * decoded, and a server answering a mix of expensive requests.
 */
import { heapStats } from "bun:jsc";
import { dlopen, FFIType } from "bun:ffi";
import { parseArgs } from "node:util";
import { loadConfig } from "../../server/config.ts";
import { loadEmbedder } from "../../server/embedding/embedder.ts";
import { openStore } from "../../server/store/store.ts";
import { prepareUnderstanding } from "../../server/search/echo.ts";
import { buildMemoryCopy } from "../../server/memory/copy.ts";
import { MODELS_DIR } from "./suite/dataset.ts";
import { createBenchKey } from "./suite/server.ts";
import { startServer } from "../../server/start.ts";
import { serverLogger } from "../../server/log.ts";
import { sendMixed } from "./memory.ts";
import { filterSet } from "../../server/store/filter-set.ts";

const { values } = parseArgs({ options: { dir: { type: "string" }, load: { type: "string", default: "0" } } });
const dir = values.dir!;
let last: Record<string, number> = {};
if (Number(values.load) > 0) {
  await profileServer(Number(values.load));
  process.exit(0);
}

report("runtime + modules");
const config = loadConfig({ ...Bun.env, DATA_DIR: dir, MODELS_DIR, DEMO_DATA: "false" });
const embedder = await loadEmbedder(config.embedding);
report("embedder loaded");
const store = await openStore({ dataDir: dir, modelId: embedder.modelId, dimension: embedder.dimension });
await prepareUnderstanding({ store });
report("table open, places read (no copy)");
const copy = await buildMemoryCopy(store.table, await store.table.version());
report(`memory copy built (its own estimate ${Math.round(copy.bytes / 2 ** 20)} MB)`);
trim();
report("malloc_trim");
const vector = await embedder.embedQuery("backend engineer");
const t0 = performance.now();
await copy.nearest(vector, filterSet({}), copy.postings);
console.log(`decoding every posting: ${(performance.now() - t0).toFixed(0)} ms`);
report("every posting decoded (the copy's candidate objects)");
for (const q of ["nurse", "python developer", "sales london", "data scientist"]) {
  const rows = await store.table.query().nearestTo(await embedder.embedQuery(q)).select(["id", "job_description", "result_json"]).limit(1000).toArray();
  void rows.length;
}
report("4 LanceDB reads of 1,000 descriptions (LanceDB's caches)");
trim();
report("malloc_trim");

// --- internal ---

/** A server in this process: memory after its copy is built, after `seconds` of the expensive mix, and after a collection. */
async function profileServer(seconds: number): Promise<void> {
  report("runtime + modules");
  const key = await createBenchKey(dir);
  const config = loadConfig({ ...Bun.env, DATA_DIR: dir, MODELS_DIR, DEMO_DATA: "false", PORT: "0", HOST: "127.0.0.1", MAX_IN_FLIGHT_PER_KEY: "1000", LOG_LEVEL: "error" });
  const server = await startServer(config, serverLogger(config));
  await server.store.warm();
  report("server up, copy built");
  const ends = Date.now() + seconds * 1000;
  let requests = 0;
  await Promise.all(Array.from({ length: 16 }, async (_, worker) => {
    for (let i = 0; Date.now() < ends; i++, requests++) await sendMixed(server.url, key.key, worker, i);
  }));
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(`after ${requests} requests of the mix: RSS ${rss.toFixed(0)} MB (before a collection)`);
  report("after the mix, collected");
  trim();
  report("malloc_trim");
  await Bun.sleep(10_000);
  report("10 s later");
  await server.stop();
  await key.revoke();
}

function trim(): void {
  const libc = dlopen("libc.so.6", { malloc_trim: { args: [FFIType.u64], returns: FFIType.i32 } });
  libc.symbols.malloc_trim(0);
}

function report(stage: string): void {
  Bun.gc(true);
  const stats = heapStats();
  const rss = process.memoryUsage().rss / 2 ** 20;
  const heap = stats.heapSize / 2 ** 20;
  const counts = stats.objectTypeCounts as Record<string, number>;
  const grown = Object.entries(counts)
    .map(([kind, n]) => [kind, n - (last[kind] ?? 0)] as const)
    .filter(([, n]) => n > 1000)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([kind, n]) => `${kind} +${n}`);
  last = counts;
  console.log(`${stage}: RSS ${rss.toFixed(0)} MB, JS heap ${heap.toFixed(0)} MB (extra ${(stats.extraMemorySize / 2 ** 20).toFixed(0)} MB); ${grown.join(", ")}`);
}
