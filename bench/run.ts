/**
 * The service benchmark (issue 6): ingest rate, cold start, engine latency, HTTP and MCP
 * throughput under wrk, and server memory, on the 29,513 shared postings. Prints one markdown
 * table with the targets and writes bench/results/bench.json.
 *   bun run bench [--quick] [--skip-ingest]
 */
import { defineCommand, runMain } from "citty";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { adoptBenchData, BENCH_DATA_DIR, benchDataCount, ensureBenchData, ROOT, runCliIngest, type IngestRun } from "./suite/dataset.ts";
import { measureEngine } from "./suite/engine.ts";
import { ensureWrk, runWrk, type LoadResult, type LoadTarget } from "./suite/load.ts";
import { formatTable, type BenchResults } from "./suite/report.ts";
import { checkTargets } from "./suite/sanity.ts";
import { createBenchKey, measureColdStart, spawnBenchServer } from "./suite/server.ts";
import { mcpBodies, SEARCH_BODIES } from "./suite/requests.ts";

const RESULTS_FILE = join(ROOT, "bench/results/bench.json");

const main = defineCommand({
  meta: { name: "bench", description: "Benchmark the service on the shared postings and print one table" },
  args: {
    quick: { type: "boolean", description: "Short durations: a smoke run, not figures to quote", default: false },
    "skip-ingest": { type: "boolean", description: "Do not measure the ingest (reuse bench/.data/bench)", default: false },
  },
  async run({ args }) {
    const started = performance.now();
    const plan = args.quick
      ? { loadSeconds: 2, warmupSeconds: 1, rounds: 30, coldStarts: 1 }
      : { loadSeconds: 10, warmupSeconds: 3, rounds: 200, coldStarts: 3 };
    const step = (text: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}`);
    const notes: string[] = [];
    const haveWrk = ensureWrk();
    if (!haveWrk) notes.push("wrk could not be installed (apt-get install -y wrk): no HTTP or MCP load figures.");

    let ingest: IngestRun | undefined;
    if (!args["skip-ingest"]) {
      step("ingest: the CLI loads the shared file into an empty DATA_DIR");
      ingest = await measureIngest();
    }
    const postings = await ensureBenchData();

    step(`engine: searchJobs in-process, ${plan.rounds} rounds per case`);
    const engine = await measureEngine(BENCH_DATA_DIR, plan.rounds);
    if (engine.postings !== postings) notes.push(`the table holds ${engine.postings} postings, the build recorded ${postings}.`);

    const key = createBenchKey(BENCH_DATA_DIR);
    try {
      step(`cold start: ${plan.coldStarts} × spawn → first search`);
      const coldStart = await measureColdStart(BENCH_DATA_DIR, key.key, plan.coldStarts);

      step("HTTP: one server for the load runs");
      const server = await spawnBenchServer(BENCH_DATA_DIR, key.key);
      const http: LoadResult[] = [];
      let mcp: LoadResult | undefined;
      const memory: BenchResults["memory"] = { afterStartMb: server.rssMb(), afterWarmupMb: Number.NaN };
      try {
        notes.push(...(await checkTargets(server.url, key.key)));
        const headers = { "content-type": "application/json", "x-api-key": key.key };
        const rest: LoadTarget = { url: `${server.url}/v1/search`, headers, bodies: SEARCH_BODIES.map((b) => JSON.stringify(b)) };
        const mcpTarget: LoadTarget = {
          url: `${server.url}/mcp`,
          headers: { ...headers, accept: "application/json, text/event-stream" },
          bodies: mcpBodies().map((b) => JSON.stringify(b)),
        };
        if (haveWrk) {
          step(`warm-up: ${plan.warmupSeconds} s at concurrency 16`);
          await runWrk(rest, 16, plan.warmupSeconds);
          memory.afterWarmupMb = server.rssMb();
          for (const connections of [1, 16, 64]) {
            step(`POST /v1/search: ${plan.loadSeconds} s at concurrency ${connections}`);
            http.push(await runWrk(rest, connections, plan.loadSeconds, server.rssMb));
          }
          step(`POST /mcp search_jobs: ${plan.loadSeconds} s at concurrency 16`);
          mcp = await runWrk(mcpTarget, 16, plan.loadSeconds, server.rssMb);
          memory.peakUnderLoadMb = Math.max(...[...http, mcp].map((r) => r.peakRssMb ?? 0));
        } else {
          memory.afterWarmupMb = server.rssMb();
        }
      } finally {
        await server.stop();
      }

      const totalSeconds = (performance.now() - started) / 1000;
      notes.push(
        `${engine.postings.toLocaleString("en-US")} postings; ${cpus().length} cores shared by server, wrk (2 threads) and this script; ` +
          `${args.quick ? "QUICK run (smoke only)" : `${plan.loadSeconds} s per load level`}; total ${totalSeconds.toFixed(0)} s.`,
      );
      const results: BenchResults = { ...(ingest ? { ingest } : {}), coldStart, engine, http, ...(mcp ? { mcp } : {}), memory, notes };
      console.log(formatTable(results));
      mkdirSync(join(ROOT, "bench/results"), { recursive: true });
      writeFileSync(RESULTS_FILE, `${JSON.stringify({ date: new Date().toISOString(), quick: args.quick, plan, totalSeconds, ...results }, null, 2)}\n`);
      console.error(`wrote ${RESULTS_FILE}`);
    } finally {
      key.revoke();
    }
  },
});

// --- internal ---

/** Times the CLI ingest into a fresh DATA_DIR; the result becomes the benchmark table when that is missing or outdated. */
async function measureIngest(): Promise<IngestRun> {
  const dir = join(ROOT, `bench/.data/ingest-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  try {
    const run = await runCliIngest(dir);
    if (benchDataCount() === undefined) adoptBenchData(dir, run.inserted + run.updated);
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runMain(main);
