/**
 * Searches right after a load: `bun bench/perf/after-load.ts [--seconds 40]`.
 *
 * Loads the 29,513 shared postings into a fresh DATA_DIR with the CLI (which builds the ANN index
 * itself), starts a server and sends a search every 200 ms from its first second (phase "after a
 * load"). Then, on a second copy loaded with the index build held back, a server whose background
 * process builds the index (nice 19) while the same searches go on (phase "during a background
 * build"). Prints statuses and latency p50/p99/max per phase.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MODELS_DIR, ROOT, SHARED_DATA } from "./suite/dataset.ts";
import { createBenchKey, spawnBenchServer, type BenchServer } from "./suite/server.ts";
import { SEARCH_BODIES } from "./suite/requests.ts";
import { percentile, round } from "./suite/stats.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "40" } } });
const seconds = Number(values.seconds);
const work = join(ROOT, "bench/.data/after-load");
/** Every search is computed: the result cache would answer the repeated bodies. */
const NO_CACHE = { SEARCH_CACHE_MB: "0" };
rmSync(work, { recursive: true, force: true });

const indexed = join(work, "indexed");
const started = performance.now();
await load(indexed, {});
console.log(`load with index build: ${round((performance.now() - started) / 1000)} s`);
await phase("after a load", indexed, NO_CACHE);

const unindexed = join(work, "unindexed");
await load(unindexed, { VECTOR_INDEX_MIN_ROWS: "1000000000" });
await phase("during a background build", unindexed, NO_CACHE, true);
rmSync(work, { recursive: true, force: true });

// --- internal ---

async function load(dir: string, env: Record<string, string>): Promise<void> {
  const proc = Bun.spawn(["bun", join(ROOT, "cli/main.ts"), "ingest", SHARED_DATA], {
    cwd: ROOT, env: { ...process.env, DATA_DIR: dir, MODELS_DIR, ...env }, stdout: "inherit", stderr: "inherit",
  });
  if ((await proc.exited) !== 0) throw new Error(`the load into ${dir} failed`);
}

async function phase(name: string, dir: string, env: Record<string, string>, expectBuild = false): Promise<void> {
  const { key } = await createBenchKey(dir);
  const server: BenchServer = await spawnBenchServer(dir, key, env);
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  let built = false;
  try {
    const ends = Date.now() + seconds * 1000;
    for (let i = 0; Date.now() < ends; i++) {
      const next = Date.now() + 200;
      const sent = performance.now();
      const response = await fetch(`${server.url}/v1/search`, {
        method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(SEARCH_BODIES[i % SEARCH_BODIES.length]),
      });
      await response.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (expectBuild && i % 25 === 0) {
        const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { checks: { index: { vector: string } } };
        built ||= ready.checks.index.vector === "ready";
      }
      await Bun.sleep(Math.max(0, next - Date.now()));
    }
  } finally {
    await server.stop();
  }
  const figures = `p50 ${round(percentile(latencies, 50))} ms, p99 ${round(percentile(latencies, 99))} ms, max ${round(Math.max(...latencies))} ms`;
  console.log(`${name}: ${latencies.length} searches, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ${figures}, first answer ${round(server.firstAnswerMs)} ms after spawn${expectBuild ? `; index ${built ? "built during the run" : "still building at the end"}` : ""}`);
}
