/**
 * Do scalar indexes on the new filter columns pay? `bun bench/perf/filter-indexes.ts`
 *
 * On a copy of the benchmark table (29,513 shared postings), times searches with the filters job
 * seekers use (seniority, employment type, tags, remote, salary, near) without indexes on those
 * columns, then with them (BITMAP on seniority_level and employment_type, LABEL_LIST on tag_keys,
 * BTREE on salary_max_usd and lat), alternating rounds; prints p50/p99 of each.
 */
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { parseSearchRequest } from "../../shared/search.ts";
import { loadEmbedder } from "../../server/embedding/embedder.ts";
import { searchJobs } from "../../server/search/search.ts";
import { openStore } from "../../server/store/store.ts";
import { BENCH_DATA_DIR, ensureBenchData, MODELS_DIR, ROOT } from "./suite/dataset.ts";
import { percentile, round } from "./suite/stats.ts";

const CASES: Array<[string, Record<string, unknown>]> = [
  ["seniority", { seniority: ["senior", "lead"] }],
  ["employment type", { employment_type: ["PART_TIME", "CONTRACTOR"] }],
  ["tags", { tags: ["python", "django"] }],
  ["remote", { remote: true }],
  ["salary", { salary_min: 150000 }],
  ["near", { near: "Berlin", radius_km: 50 }],
];
const QUERIES = ["backend engineer", "data scientist", "frontend developer", "devops", "product manager"];
const ROUNDS = 40;

await ensureBenchData();
const work = join(ROOT, "bench/.data/filter-indexes");
rmSync(work, { recursive: true, force: true });
cpSync(BENCH_DATA_DIR, work, { recursive: true });
const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
const store = await openStore({ dataDir: work, modelId: embedder.modelId, dimension: embedder.dimension });
try {
  const timings = { without: new Map<string, number[]>(), with: new Map<string, number[]>() };
  await measure(timings.without, 5); // warm-up
  timings.without.clear();
  await measure(timings.without, ROUNDS);
  const started = performance.now();
  for (const [column, config] of [
    ["seniority_level", lancedb.Index.bitmap()], ["employment_type", lancedb.Index.bitmap()], ["tag_keys", lancedb.Index.labelList()],
    ["salary_max_usd", lancedb.Index.btree()], ["lat", lancedb.Index.btree()],
  ] as const) {
    await store.table.createIndex(column, { config });
  }
  const indexMs = performance.now() - started;
  await store.refresh();
  await measure(timings.with, 5);
  timings.with.clear();
  await measure(timings.with, ROUNDS);
  console.log(`indexes built in ${round(indexMs)} ms; search latency (p50 / p99 ms, ${ROUNDS} rounds × ${QUERIES.length} queries, cache off):`);
  console.log("| filter | without indexes | with indexes |\n|---|---|---|");
  for (const [name] of CASES) {
    const figure = (samples: number[]) => `${round(percentile(samples, 50))} / ${round(percentile(samples, 99))}`;
    console.log(`| ${name} | ${figure(timings.without.get(name)!)} | ${figure(timings.with.get(name)!)} |`);
  }
} finally {
  store.close();
  rmSync(work, { recursive: true, force: true });
}

async function measure(into: Map<string, number[]>, rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const [name, filters] of CASES) {
      const samples = into.get(name) ?? [];
      for (const q of QUERIES) {
        const request = parseSearchRequest({ q, ...filters, top_k: 20 }, "post");
        const at = performance.now();
        await searchJobs({ store, embedder }, request);
        samples.push(performance.now() - at);
      }
      into.set(name, samples);
    }
  }
}
