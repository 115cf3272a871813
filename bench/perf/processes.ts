/**
 * Scaling over server processes (issue 17): the server on the benchmark table (bench/.data/bench,
 * only read: it is DATA_URI, keys live in a temp DATA_DIR) with SERVER_PROCESSES=1 and =2,
 * SEARCH_CACHE_MB=0, driven by wrk with the shared search bodies; req/s and latency of each and
 * the ratio. First, what a worker pays per request without Redis: a rate-limit decision and a slot
 * asked of the primary over IPC, against the same in one process.
 * Also the server processes' CPU use (all threads), since the machine is shared and wrk runs on it too.
 *   bun bench/perf/processes.ts [--seconds 15] [--connections 16] [--processes 2] [--rounds 2]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createMemoryRateLimiter } from "../../server/auth/rate-limit.ts";
import { serveLimiter, type LimiterRequest } from "../../server/cluster/ipc-limiter.ts";
import { BENCH_DATA_DIR, MODELS_DIR, ROOT } from "./suite/dataset.ts";
import { ensureWrk, runWrk, type LoadResult } from "./suite/load.ts";
import { SEARCH_BODIES } from "./suite/requests.ts";
import { createBenchKey, freePort } from "./suite/server.ts";

/** USER_HZ of /proc/<pid>/stat: 100 on Linux everywhere but exotic builds. */
const CLOCK_TICKS = 100;

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "15" }, connections: { type: "string", default: "16" },
    processes: { type: "string", default: "2" }, rounds: { type: "string", default: "2" },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const most = Number(values.processes);

if (!existsSync(join(BENCH_DATA_DIR, "jobs.lance"))) throw new Error(`no benchmark table in ${BENCH_DATA_DIR}: run \`bun run bench\` once (or link bench/.data/bench)`);
if (!ensureWrk()) process.exit(1);

const ipc = await measureIpc();
console.error(`rate-limit decision: ${ipc.local.toFixed(1)} µs in process, ${ipc.serial.toFixed(1)} µs over IPC (round trip), ${ipc.concurrent.toFixed(1)} µs each with 16 waiting`);

const dataDir = mkdtempSync(join(tmpdir(), "jobsearch-procs-"));
const key = await createBenchKey(dataDir);
const runs: Array<{ processes: number; result: LoadResult; cpu: number; js: number }> = [];
const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
try {
  // Alternating 1, N, N, 1 … so drift in the machine's other load falls on both alike.
  for (let round = 0; round < rounds; round++) {
    for (const processes of round % 2 === 0 ? [1, most] : [most, 1]) {
      const server = await startServer(processes, dataDir);
      try {
        const target = {
          url: `${server.url}/v1/search`,
          headers: { "content-type": "application/json", "x-api-key": key.key },
          bodies: SEARCH_BODIES.map((body) => JSON.stringify(body)),
        };
        await runWrk(target, connections, 3); // warm-up: decoded postings, JIT, the kernel's page cache
        const [cpuBefore, jsBefore] = [server.cpuSeconds(), server.jsSeconds()];
        const result = await runWrk(target, connections, seconds);
        const cpu = (server.cpuSeconds() - cpuBefore) / result.seconds;
        const js = (server.jsSeconds() - jsBefore) / result.seconds;
        runs.push({ processes, result, cpu, js });
        console.error(`${processes} process(es): ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, server CPU ${percent(cpu)} (JS threads ${percent(js)}), ${result.non200} non-200`);
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

// The best run of each: on a shared machine the others lost CPU to work that was not ours.
const rows = [1, most].map((processes) => {
  const best = runs.filter((run) => run.processes === processes).sort((a, b) => b.result.rps - a.result.rps)[0]!;
  const { rps, p50, p99, non200, socketErrors } = best.result;
  return { processes, rps, p50, p99, cpu: best.cpu, js: best.js, failed: non200 + socketErrors };
});
const [one, many] = rows as [(typeof rows)[0], (typeof rows)[0]];
console.log(`\nPOST /v1/search, ${connections} connections, ${seconds} s, best of ${rounds} runs each, SEARCH_CACHE_MB=0, ${cpus().length} cores shared with wrk and other work (load ${loadavg()[0]!.toFixed(1)})\n`);
console.log("| SERVER_PROCESSES | req/s | p50 ms | p99 ms | server CPU (JS threads) | CPU ms / request (JS) | failed |");
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) {
  const perRequest = (share: number) => ((share / row.rps) * 1000).toFixed(1);
  console.log(`| ${row.processes} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${percent(row.cpu)} (${percent(row.js)}) | ${perRequest(row.cpu)} (${perRequest(row.js)}) | ${row.failed} |`);
}
console.log(`\n${most} vs 1 process: ×${(many.rps / one.rps).toFixed(2)} req/s, p99 ×${(many.p99 / one.p99).toFixed(2)}`);
console.log(`rate-limit decision over IPC: ${ipc.serial.toFixed(1)} µs round trip (${ipc.local.toFixed(1)} µs in process), ${ipc.concurrent.toFixed(1)} µs each with 16 waiting`);

// --- internal ---

/** `bun server/main.ts` on the benchmark table; resolves at its "ready" line (every process listens by then). */
async function startServer(processes: number, dataDir: string) {
  const port = await freePort();
  const proc = Bun.spawn(["bun", join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: {
      ...process.env, DATA_DIR: dataDir, DATA_URI: BENCH_DATA_DIR, PORT: String(port), HOST: "127.0.0.1", MODELS_DIR, DEMO_DATA: "false",
      SEARCH_CACHE_MB: "0", SERVER_PROCESSES: String(processes), MAX_IN_FLIGHT_PER_KEY: "1000", LOG_LEVEL: "info", LOG_FORMAT: "json", LANCEDB_LOG: "error",
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  // Request lines are logged (info), as in production and in bench/perf/run.ts; only the start of the log is kept.
  let log = "";
  const decoder = new TextDecoder();
  const reader = proc.stderr.getReader();
  const ready = Promise.withResolvers<void>();
  const reading = (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (log.length < 100_000) log += decoder.decode(chunk.value, { stream: true });
      if (log.includes('"msg":"ready"')) ready.resolve();
    }
    ready.reject(new Error(`server exited (${await proc.exited}) before it was ready:\n${log}`));
  })();
  await ready.promise;
  const url = `http://127.0.0.1:${port}`;
  const workers = (JSON.parse(log.split("\n").find((line) => line.includes('"msg":"ready"'))!) as { workers?: number[] }).workers ?? [];
  return {
    url,
    /** CPU time (user + system, every thread) of the server's processes so far. */
    cpuSeconds: () => [proc.pid, ...workers].reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    /** CPU time of the JavaScript threads (each process's main thread: HTTP, JSON, ranking); the rest is LanceDB's and the embedder's pools. */
    jsSeconds: () => [proc.pid, ...workers].reduce((sum, pid) => sum + cpuSecondsOf(pid, pid), 0),
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      await reading;
    },
  };
}

/** CPU seconds of a process (every thread), or with `thread` of that one thread. */
function cpuSecondsOf(pid: number, thread?: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** µs per rate-limit decision: the memory limiter in process, and asked of this process by a child over IPC. */
async function measureIpc(): Promise<{ local: number; serial: number; concurrent: number }> {
  const limiter = createMemoryRateLimiter();
  const rounds = 20_000;
  let started = performance.now();
  for (let i = 0; i < rounds; i++) await limiter.hit(`key:${i % 50}`, 1_000_000);
  const local = ((performance.now() - started) * 1000) / rounds;
  const module = JSON.stringify(join(ROOT, "server/cluster/ipc-limiter.ts"));
  const child = Bun.spawn(["bun", "-e", `
    const { createIpcRateLimiter } = await import(${module});
    const log = { debug() {}, info() {}, warn: console.error, error: console.error };
    const ipc = createIpcRateLimiter((m) => process.send(m), log);
    process.on("message", (m) => ipc.receive(m));
    const hit = () => ipc.limiter.hit("key:bench", 1000000);
    for (let i = 0; i < 2000; i++) await hit();
    let t = performance.now();
    for (let i = 0; i < ${rounds}; i++) await hit();
    const serial = ((performance.now() - t) * 1000) / ${rounds};
    t = performance.now();
    for (let i = 0; i < ${rounds} / 16; i++) await Promise.all(Array.from({ length: 16 }, hit));
    const concurrent = ((performance.now() - t) * 1000) / ${rounds};
    process.send({ t: "done", serial, concurrent });
  `], {
    stdout: "inherit", stderr: "inherit", serialization: "json",
    ipc(message: LimiterRequest | { t: "done"; serial: number; concurrent: number }) {
      if (message.t === "done") return void finish(message);
      void served.handle(message);
    },
  });
  const served = serveLimiter(limiter, (reply) => child.send(reply));
  const { promise, resolve } = Promise.withResolvers<{ serial: number; concurrent: number }>();
  const finish = (result: { serial: number; concurrent: number }) => {
    child.kill();
    resolve(result);
  };
  return { local, ...(await promise) };
}
