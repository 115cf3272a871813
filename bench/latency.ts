/**
 * Search latency in-process and over HTTP on an existing DATA_DIR (e.g. after ingesting
 * ../shared/data/jobs.jsonl.gz). Prints p50/p99 per case.
 *   DATA_DIR=/tmp/real bun bench/latency.ts
 */
import { loadConfig } from "../server/config.ts";
import { createLogger } from "../server/log.ts";
import { parseSearchRequest } from "../shared/search.ts";
import { searchJobs } from "../server/search/search.ts";
import { startServer } from "../server/start.ts";

const QUERIES = [
  "backend engineer python", "frontend react developer", "machine learning researcher", "devops kubernetes",
  "mobile ios developer", "data scientist statistics", "product manager", "security engineer",
  "site reliability engineer", "embedded firmware engineer", "technical writer", "sales engineer",
];
const FILTERS: Array<Record<string, unknown>> = [{}, { city: "San Francisco" }, { country: "GB" }, { since: "2017-01-01" }];
const ROUNDS = Number(Bun.env.ROUNDS ?? 200);

const config = loadConfig({ ...Bun.env, PORT: "0", DEMO_DATA: "false", LOG_LEVEL: "error" });
const server = await startServer(config, createLogger("error"));
const key = server.keys.create("bench").key;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(name: string, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  console.log(`${name.padEnd(40)} p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms`);
}

const raw = (i: number, filters: Record<string, unknown>, detail = "summary") => ({
  q: QUERIES[i % QUERIES.length], ...filters, detail,
});
console.log(`postings: ${await server.store.count()}, rounds: ${ROUNDS}`);
await measure("embed query", (i) => server.embedder.embedQuery(`${QUERIES[i % QUERIES.length]} ${i}`));
for (const filters of FILTERS) {
  const label = JSON.stringify(filters);
  await measure(`engine ${label}`, (i) =>
    searchJobs(server, parseSearchRequest(raw(i, filters), { queryField: "q", fromQueryString: false })),
  );
}
await measure("engine full detail", (i) =>
  searchJobs(server, parseSearchRequest(raw(i, {}, "full"), { queryField: "q", fromQueryString: false })),
);
await measure("HTTP POST /v1/search", (i) =>
  fetch(`${server.url}/v1/search`, { method: "POST", headers: { "x-api-key": key }, body: JSON.stringify(raw(i, {})) }).then((r) => r.json()),
);
await server.stop();
