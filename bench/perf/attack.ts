/**
 * A normal user's searches while one key pages as deep as it may:
 * `bun bench/perf/attack.ts [--seconds 30] [--in-flight 4]` (MAX_IN_FLIGHT_PER_KEY; default the server's).
 *
 * On the 29,513 shared postings (the benchmark table, built once), with the result cache off and the
 * default limits: first the normal user alone (a search every 200 ms with its own key), then the same
 * while an attacker's key runs 8 loops of the deepest page allowed (offset 900, top_k 100, a new query
 * each time) plus the old attack (offset 10000), which is refused, and 2 loops of MCP batches of 10
 * such calls (the largest batch). Prints the normal user's latency p50/p99/max and statuses, the
 * attacker's REST statuses and MCP call outcomes, and /healthz latency.
 */
import { parseArgs } from "node:util";
import { BENCH_DATA_DIR, ensureBenchData } from "./suite/dataset.ts";
import { createBenchKey, spawnBenchServer } from "./suite/server.ts";
import { percentile, round } from "./suite/stats.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "30" }, "in-flight": { type: "string", default: "4" } } });
const seconds = Number(values.seconds);
await ensureBenchData();
const user = await createBenchKey(BENCH_DATA_DIR);
const attacker = await createBenchKey(BENCH_DATA_DIR);
const server = await spawnBenchServer(BENCH_DATA_DIR, user.key, { SEARCH_CACHE_MB: "0", MAX_IN_FLIGHT_PER_KEY: values["in-flight"] });
const QUERIES = ["registered nurse", "backend engineer python", "data analyst", "ios developer", "devops kubernetes", "accountant", "product designer"];

try {
  report("alone", await normalUser(seconds / 2));
  const stop = { now: false };
  const attack = Array.from({ length: 8 }, (_, worker) => attackLoop(worker, stop));
  const batches = Array.from({ length: 2 }, (_, worker) => batchLoop(worker, stop));
  const health = healthLoop(stop);
  const during = await normalUser(seconds);
  stop.now = true;
  const attackStatuses = merge(await Promise.all(attack));
  const calls = merge(await Promise.all(batches));
  report("during the attack", during);
  const healthMs = await health;
  console.log(`attacker: REST ${JSON.stringify(attackStatuses)}; MCP batch calls ${JSON.stringify(calls)}`);
  console.log(`/healthz during the attack: p50 ${round(percentile(healthMs, 50))} ms, p99 ${round(percentile(healthMs, 99))} ms, max ${round(Math.max(...healthMs))} ms`);
} finally {
  await server.stop();
  await user.revoke();
  await attacker.revoke();
}

// --- internal ---

interface Run { latencies: number[]; statuses: Record<number, number> }

async function normalUser(forSeconds: number): Promise<Run> {
  const run: Run = { latencies: [], statuses: {} };
  const ends = Date.now() + forSeconds * 1000;
  for (let i = 0; Date.now() < ends; i++) {
    const next = Date.now() + 200;
    const sent = performance.now();
    const status = await post(user.key, { q: QUERIES[i % QUERIES.length], top_k: 10 });
    run.latencies.push(performance.now() - sent);
    run.statuses[status] = (run.statuses[status] ?? 0) + 1;
    await Bun.sleep(Math.max(0, next - Date.now()));
  }
  return run;
}

async function attackLoop(worker: number, stop: { now: boolean }): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (let i = 0; !stop.now; i++) {
    const deep = i % 10 === 9 ? { offset: 10_000, top_k: 100 } : { offset: 900, top_k: 100 };
    const status = await post(attacker.key, { q: `${QUERIES[(worker + i) % QUERIES.length]} ${worker}-${i}`, ...deep });
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 429) await Bun.sleep(50);
  }
  return statuses;
}

/** Batches of 10 deepest-page calls; counts each call's outcome (result, isError, or its JSON-RPC error message). */
async function batchLoop(worker: number, stop: { now: boolean }): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  for (let i = 0; !stop.now; i++) {
    const batch = Array.from({ length: 10 }, (_, n) => ({
      jsonrpc: "2.0", id: n, method: "tools/call",
      params: { name: "search_jobs", arguments: { query: `${QUERIES[(worker + i + n) % QUERIES.length]} b${worker}-${i}-${n}`, offset: 900, top_k: 100 } },
    }));
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "x-api-key": attacker.key, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(batch),
    });
    const answers = response.status === 200 ? ((await response.json()) as Array<{ result?: { isError?: boolean }; error?: { message: string } }>) : [];
    if (response.status !== 200) outcomes[`HTTP ${response.status}`] = (outcomes[`HTTP ${response.status}`] ?? 0) + 1;
    for (const answer of answers) {
      const outcome = answer.error ? answer.error.message : answer.result?.isError ? "isError" : "result";
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    if (answers.some((a) => a.error)) await Bun.sleep(50);
  }
  return outcomes;
}

async function healthLoop(stop: { now: boolean }): Promise<number[]> {
  const latencies: number[] = [];
  while (!stop.now) {
    const sent = performance.now();
    await (await fetch(`${server.url}/healthz`)).arrayBuffer();
    latencies.push(performance.now() - sent);
    await Bun.sleep(250);
  }
  return latencies;
}

async function post(key: string, body: object): Promise<number> {
  const response = await fetch(`${server.url}/v1/search`, {
    method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

function merge<K extends string | number>(runs: Array<Record<K, number>>): Record<K, number> {
  const total = {} as Record<K, number>;
  for (const run of runs) for (const [outcome, n] of Object.entries(run) as Array<[K, number]>) total[outcome] = (total[outcome] ?? 0) + n;
  return total;
}

function report(name: string, run: Run): void {
  const { latencies, statuses } = run;
  console.log(`normal user ${name}: ${latencies.length} searches ${JSON.stringify(statuses)}, p50 ${round(percentile(latencies, 50))} ms, p99 ${round(percentile(latencies, 99))} ms, max ${round(Math.max(...latencies))} ms`);
}
