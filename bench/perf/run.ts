/**
 * The service benchmark (issue 6): ingest rate, cold start, engine latency, HTTP and MCP
 * throughput under wrk, and server memory, on the 29,513 shared postings. Prints one markdown
 * table with the targets and writes bench/results/bench.json.
 * Issue 17: a mix of 12,000 distinct searches (suite/mix.ts) without result cache (throughput, p99,
 * server CPU per search) and with it (hit rate), and the issue's targets with ✓/✗ at the table's end.
 * With --peers, also exact brute force and Orama on the same vectors in-process, and the mix over HTTP
 * against the service, brute force, Orama and SQLite FTS5; with --scale N, a table of N postings
 * recombined from the shared postings' titles and sentences and embedded by the service's embedder
 * (bench/.data/scale-N, built once): index build, latency, recall on query texts and server memory.
 *   bun run bench [--quick] [--skip-ingest] [--peers] [--scale 300000]
 */
import { defineCommand, runMain } from "citty";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { adoptBenchData, BENCH_DATA_DIR, benchDataCount, ensureBenchData, ROOT, runCliIngest, type IngestRun } from "./suite/dataset.ts";
import { measureEngine } from "./suite/engine.ts";
import { httpPeerNote, httpPeerRows, measureHttpPeers, type HttpPeersResult } from "./peers/http.ts";
import { buildMix, loadMixSource, type MixBody } from "./suite/mix.ts";
import { measureMix, type MixResult } from "./suite/mix-run.ts";
import { loadCorpus } from "./peers/corpus.ts";
import { measurePeers, peerRows, type PeersResult } from "./peers/in-process.ts";
import { measureScale, scaleRows, type ScaleResult } from "./scale/scale.ts";
import { ensureWrk, runWrk, type LoadResult, type LoadTarget } from "./suite/load.ts";
import { formatTable, type BenchResults } from "./suite/report.ts";
import { checkTargets } from "./suite/sanity.ts";
import { mixRows, scalingTargetRows } from "./suite/targets.ts";
import { createBenchKey, measureColdStart, spawnBenchServer } from "./suite/server.ts";
import { mcpBodies, SEARCH_BODIES } from "./suite/requests.ts";

const RESULTS_FILE = join(ROOT, "bench/results/bench.json");

const main = defineCommand({
  meta: { name: "bench", description: "Benchmark the service on the shared postings and print one table" },
  args: {
    quick: { type: "boolean", description: "Short durations: a smoke run, not figures to quote", default: false },
    "skip-ingest": { type: "boolean", description: "Do not measure the ingest (reuse bench/.data/bench)", default: false },
    peers: { type: "boolean", description: "Also compare with brute force, Orama and SQLite FTS5: in-process on the same vectors, and over HTTP on the mix", default: false },
    scale: { type: "string", description: "Also measure a table of this many recombined postings (e.g. 1000000)" },
  },
  async run({ args }) {
    const started = performance.now();
    const scale = args.scale === undefined ? undefined : Number(args.scale);
    if (scale !== undefined && !(Number.isInteger(scale) && scale > 0)) throw new Error(`--scale wants a posting count, got "${args.scale}"`);
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

    const key = await createBenchKey(BENCH_DATA_DIR);
    try {
      step(`cold start: ${plan.coldStarts} × spawn → first search`);
      const coldStart = await measureColdStart(BENCH_DATA_DIR, key.key, plan.coldStarts);

      step("HTTP: one server for the load runs");
      const server = await spawnBenchServer(BENCH_DATA_DIR, key.key);
      const http: LoadResult[] = [];
      const httpUncached: LoadResult[] = [];
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
      if (haveWrk) {
        const uncached = await spawnBenchServer(BENCH_DATA_DIR, key.key, { SEARCH_CACHE_MB: "0" });
        try {
          const rest: LoadTarget = { url: `${uncached.url}/v1/search`, headers: { "content-type": "application/json", "x-api-key": key.key }, bodies: SEARCH_BODIES.map((b) => JSON.stringify(b)) };
          await runWrk(rest, 16, plan.warmupSeconds);
          for (const connections of [1, 16]) {
            step(`POST /v1/search, result cache off: ${plan.loadSeconds} s at concurrency ${connections}`);
            httpUncached.push(await runWrk(rest, connections, plan.loadSeconds, uncached.rssMb));
          }
        } finally {
          await uncached.stop();
        }
      }

      const extra: { mix?: MixResult; httpPeers?: HttpPeersResult; peers?: PeersResult; scale?: ScaleResult } = {};
      const extraRows: string[][] = [];
      let mix: MixBody[] = [];
      if (haveWrk) {
        mix = buildMix(await loadMixSource(BENCH_DATA_DIR));
        extra.mix = await measureMix(BENCH_DATA_DIR, key.key, mix, { loadSeconds: plan.loadSeconds, checkAll: !args.quick }, step);
        extraRows.push(...mixRows(extra.mix));
      }

      // After the server stopped, so Orama's heap and the scale table's writes do not share the load runs' cores.
      if (args.peers || scale !== undefined) {
        const corpus = await loadCorpus(BENCH_DATA_DIR);
        if (args.peers && haveWrk) {
          extra.httpPeers = await measureHttpPeers(BENCH_DATA_DIR, key.key, corpus, mix, plan, step);
          extraRows.push(...httpPeerRows(extra.httpPeers));
          notes.push(httpPeerNote(extra.httpPeers));
        }
        if (args.peers) {
          step("peers: exact brute force, Orama and store.nearest on the same vectors, 200 queries");
          extra.peers = await measurePeers(BENCH_DATA_DIR, corpus, 200);
          extraRows.push(...peerRows(extra.peers));
        }
        if (scale !== undefined) {
          step(`scale: ${scale.toLocaleString("en-US")} recombined postings, index build, 200 queries`);
          extra.scale = await measureScale(BENCH_DATA_DIR, corpus, scale, 200, step);
          extraRows.push(...scaleRows(extra.scale));
        }
      }

      const totalSeconds = (performance.now() - started) / 1000;
      notes.push(
        `${engine.postings.toLocaleString("en-US")} postings; ${cpus().length} cores shared by server, wrk (2 threads) and this script; ` +
          `${args.quick ? "QUICK run (smoke only)" : `${plan.loadSeconds} s per load level`}; total ${totalSeconds.toFixed(0)} s.`,
      );
      const results: BenchResults = { ...(ingest ? { ingest } : {}), coldStart, engine, http, httpUncached, ...(mcp ? { mcp } : {}), memory, notes };
      extraRows.push(...scalingTargetRows({ coldStart, ...extra }));
      console.log(appendRows(formatTable({ ...results, notes: [] }), extraRows, notes));
      mkdirSync(join(ROOT, "bench/results"), { recursive: true });
      writeFileSync(RESULTS_FILE, `${JSON.stringify({ date: new Date().toISOString(), quick: args.quick, plan, totalSeconds, ...results, ...extra }, null, 2)}\n`);
      console.error(`wrote ${RESULTS_FILE}`);
    } finally {
      await key.revoke();
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

/** The suite's table with `rows` added at its end, then the notes as formatTable writes them. */
function appendRows(table: string, rows: string[][], notes: string[]): string {
  return [table, ...rows.map((row) => `\n| ${row.join(" | ")} |`), ...notes.map((n) => `\n- ${n}`)].join("");
}

await runMain(main);
