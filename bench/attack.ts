/**
 * A normal user's searches while one key pages as deep as it may: `bun bench/attack.ts [--seconds 30]`.
 *
 * On the 29,513 shared postings (the benchmark table, built once), with the result cache off and the
 * default limits: first the normal user alone (a search every 200 ms with its own key), then the same
 * while an attacker's key runs 8 loops of the deepest page allowed (offset 900, top_k 100, a new query
 * each time) plus the old attack (offset 10000), which is refused. Prints the normal user's latency
 * p50/p99/max and statuses, the attacker's statuses, and /healthz latency.
 */
import { parseArgs } from "node:util";
import { BENCH_DATA_DIR, ensureBenchData } from "./suite/dataset.ts";
import { createBenchKey, spawnBenchServer } from "./suite/server.ts";
import { percentile, round } from "./suite/stats.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "30" } } });
const seconds = Number(values.seconds);
await ensureBenchData();
const user = await createBenchKey(BENCH_DATA_DIR);
const attacker = await createBenchKey(BENCH_DATA_DIR);
const server = await spawnBenchServer(BENCH_DATA_DIR, user.key, { SEARCH_CACHE_MB: "0", MAX_IN_FLIGHT_PER_KEY: "4" });
const QUERIES = ["registered nurse", "backend engineer python", "data analyst", "ios developer", "devops kubernetes", "accountant", "product designer"];

try {
  report("alone", await normalUser(seconds / 2));
  const stop = { now: false };
  const attack = Array.from({ length: 8 }, (_, worker) => attackLoop(worker, stop));
  const health = healthLoop(stop);
  const during = await normalUser(seconds);
  stop.now = true;
  const attackStatuses = merge(await Promise.all(attack));
  report("during the attack", during);
  const healthMs = await health;
  console.log(`attacker: ${JSON.stringify(attackStatuses)}; /healthz during the attack p50 ${round(percentile(healthMs, 50))} ms, max ${round(Math.max(...healthMs))} ms`);
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

function merge(runs: Array<Record<number, number>>): Record<number, number> {
  const total: Record<number, number> = {};
  for (const run of runs) for (const [status, n] of Object.entries(run)) total[Number(status)] = (total[Number(status)] ?? 0) + n;
  return total;
}

function report(name: string, run: Run): void {
  const { latencies, statuses } = run;
  console.log(`normal user ${name}: ${latencies.length} searches ${JSON.stringify(statuses)}, p50 ${round(percentile(latencies, 50))} ms, p99 ${round(percentile(latencies, 99))} ms, max ${round(Math.max(...latencies))} ms`);
}
