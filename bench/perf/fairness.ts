/**
 * Fair under load (issue 24, item 3): a well-behaved key's searches alone, then while another key
 * sends expensive requests (every facet, the deepest page, detail=full, a new query each) at
 * concurrency 16, retrying each 429 at once; with one server process and with two, side by side.
 * `bun bench/perf/fairness.ts [--seconds 20] [--processes 1,2]`
 *
 * Default limits (MAX_IN_FLIGHT_PER_KEY 4), the result cache off, measured once the in-memory copy
 * is built in every process. The well-behaved key sends one search at a time (a pause of 50 ms
 * between), each over a new connection so that with two processes both answer it. Targets: its p99
 * under attack at most twice its p99 alone and at most 1 s; no refusal.
 */
import { parseArgs } from "node:util";
import { FACET_NAMES } from "../../shared/search-params.ts";
import { BENCH_DATA_DIR, ensureBenchData } from "./suite/dataset.ts";
import { createBenchKey, spawnBenchServer, type BenchServer } from "./suite/server.ts";
import { percentile, round } from "./suite/stats.ts";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "20" }, processes: { type: "string", default: "1,2" }, "attack-url": { type: "string" }, "attack-key": { type: "string" } },
});
const seconds = Number(values.seconds);
const QUERIES = [
  "registered nurse", "backend engineer python", "data analyst", "ios developer", "devops kubernetes", "accountant",
  "product designer", "sales manager", "warehouse associate", "teacher", "react frontend developer", "truck driver",
];

// The attacker runs in a process of its own, so the well-behaved key's client shares no event loop with it.
if (values["attack-url"]) {
  const stop = { now: false };
  process.on("SIGTERM", () => (stop.now = true));
  const loops = Array.from({ length: 16 }, (_, worker) => attackLoop(values["attack-url"]!, values["attack-key"]!, worker, stop));
  console.log(JSON.stringify(merge(await Promise.all(loops))));
  process.exit(0);
}

await ensureBenchData();
const user = await createBenchKey(BENCH_DATA_DIR);
const attacker = await createBenchKey(BENCH_DATA_DIR);
const rows: Row[] = [];
try {
  for (const processes of values.processes.split(",").map(Number)) rows.push(await scenario(processes));
} finally {
  await user.revoke();
  await attacker.revoke();
}
printTable(rows);

// --- internal ---

/** Client-side latencies, and the server's own search_time_ms of each answered search. */
interface Run { latencies: number[]; serverMs: number[]; refused: number }
interface Row { processes: number; alone: Run; attacked: Run; attack: Record<number, number> }

async function scenario(processes: number): Promise<Row> {
  const server = await spawnBenchServer(BENCH_DATA_DIR, user.key, {
    SEARCH_CACHE_MB: "0", SERVER_PROCESSES: String(processes), MAX_IN_FLIGHT_PER_KEY: "4", LOG_LEVEL: "warn",
  });
  try {
    await wellBehaved(server, 2); // warm: the first of each query builds what it reads once
    const alone = await wellBehaved(server, seconds);
    const attack = Bun.spawn(["bun", import.meta.path, "--attack-url", server.url, "--attack-key", attacker.key], { stdout: "pipe", stderr: "inherit" });
    const attacked = await wellBehaved(server, seconds);
    attack.kill("SIGTERM");
    const statuses = JSON.parse(await new Response(attack.stdout).text()) as Record<number, number>;
    return { processes, alone, attacked, attack: statuses };
  } finally {
    await server.stop();
  }
}

async function wellBehaved(server: BenchServer, forSeconds: number): Promise<Run> {
  const run: Run = { latencies: [], serverMs: [], refused: 0 };
  const ends = performance.now() + forSeconds * 1000;
  for (let i = 0; performance.now() < ends; i++) {
    const sent = performance.now();
    const { status, body } = await post(server.url, user.key, { q: QUERIES[i % QUERIES.length], top_k: 10 }, true);
    run.latencies.push(performance.now() - sent);
    if (status !== 200) run.refused++;
    else run.serverMs.push((JSON.parse(body) as { search_time_ms: number }).search_time_ms);
    await Bun.sleep(50);
  }
  return run;
}

async function attackLoop(url: string, key: string, worker: number, stop: { now: boolean }): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (let i = 0; !stop.now; i++) {
    const body = { q: `${QUERIES[(worker + i) % QUERIES.length]} ${worker}-${i}`, offset: 900, top_k: 100, detail: "full", facets: FACET_NAMES };
    const { status } = await post(url, key, body, false);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return statuses;
}

async function post(url: string, key: string, body: object, newConnection: boolean): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { "x-api-key": key, "content-type": "application/json" };
  if (newConnection) headers.connection = "close";
  const response = await fetch(`${url}/v1/search`, { method: "POST", headers, body: JSON.stringify(body) }).catch(() => undefined);
  if (!response) return { status: 0, body: "" };
  return { status: response.status, body: await response.text() };
}

function merge(runs: Array<Record<number, number>>): Record<number, number> {
  const total: Record<number, number> = {};
  for (const run of runs) for (const [status, n] of Object.entries(run)) total[Number(status)] = (total[Number(status)] ?? 0) + n;
  return total;
}

function printTable(results: Row[]): void {
  const figures = (run: Run) => {
    const [p50, p99, max] = [percentile(run.latencies, 50), percentile(run.latencies, 99), Math.max(...run.latencies)];
    const server = `server's search_time_ms p50 ${round(percentile(run.serverMs, 50))}, p99 ${round(percentile(run.serverMs, 99))}`;
    return { p50, p99, max, text: `p50 ${round(p50)} ms, p99 ${round(p99)} ms, max ${round(max)} ms, ${run.latencies.length} searches, ${run.refused} refused (${server})` };
  };
  console.log("\nThe well-behaved key's searches, alone and while another key sends expensive requests at concurrency 16:");
  for (const row of results) {
    const alone = figures(row.alone);
    const attacked = figures(row.attacked);
    const mark = (ok: boolean) => (ok ? "✓" : "✗");
    console.log(`\n${row.processes} process${row.processes > 1 ? "es" : ""}`);
    console.log(`  alone:        ${alone.text}`);
    console.log(`  under attack: ${attacked.text}`);
    console.log(`  attacker's answers: ${JSON.stringify(row.attack)}`);
    console.log(`  ${mark(attacked.p99 <= 2 * alone.p99)} p99 under attack ≤ 2 × p99 alone (${round(attacked.p99)} ≤ ${round(2 * alone.p99)} ms)`);
    console.log(`  ${mark(attacked.p99 <= 1000)} p99 under attack ≤ 1 s`);
    console.log(`  ${mark(row.attacked.refused === 0)} no refusal of the well-behaved key (${row.attacked.refused})`);
  }
}
