/**
 * `bun bench/perf/suite/match-latency.ts [DATA_DIR]`: a match of a two-page CV against a search, side by
 * side in one process on the same table (default: the relevance evaluation's, bench/.data/eval), p50 and
 * p99 of each and their ratio (issue 25's goal: a match costs at most 3 searches).
 */
import { resolve } from "node:path";
import { loadConfig } from "../../../server/config.ts";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { matchJobs } from "../../../server/match/match.ts";
import { memoryCopyUpTo } from "../../../server/memory/holder.ts";
import { searchJobs } from "../../../server/search/search.ts";
import { openStore } from "../../../server/store/store.ts";
import { parseMatchRequest } from "../../../shared/match.ts";
import { parseSearchRequest } from "../../../shared/search.ts";
import { MODELS_DIR, ROOT } from "./dataset.ts";
import { QUERIES } from "./requests.ts";
import { twoPageCv } from "../../../tests/support/fixtures/cv.ts";
import { percentile } from "./stats.ts";

const ROUNDS = 100;
const CV = twoPageCv("Toronto, Canada");

const dataDir = resolve(process.argv[2] ?? `${ROOT}/bench/.data/eval`);
const config = loadConfig({ ...Bun.env, DATA_DIR: dataDir, MODELS_DIR, DEMO_DATA: "false", LOG_LEVEL: "error" });
const embedder = await loadEmbedder(config.embedding);
const store = await openStore({ dataDir, modelId: embedder.modelId, dimension: embedder.dimension, memoryCopy: memoryCopyUpTo(config.memoryCopyMaxPostings) });
await store.warm();
const deps = { store, embedder };
// In turn in one process (a search, a match, a search, …), on the same table and the same copy: a busy
// machine slows both alike, where timing all searches first and then all matches compared two moments.
const runSearch = (i: number) => searchJobs(deps, parseSearchRequest({ q: `${QUERIES[i % QUERIES.length]}`, top_k: 10 }, "post"));
const runMatch = (i: number) => matchJobs(deps, parseMatchRequest({ profile: `${CV}\n${i}`, top_k: 10 }, "post"));
for (let i = 0; i < 20; i++) await Promise.all([runSearch(i), runMatch(i)]);
const searches: number[] = [];
const matches: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  searches.push(await elapsed(() => runSearch(i)));
  matches.push(await elapsed(() => runMatch(i)));
}
const search = { p50: percentile(searches, 50), p99: percentile(searches, 99) };
const match = { p50: percentile(matches, 50), p99: percentile(matches, 99) };
console.log(`| | p50 | p99 |\n|---|---|---|`);
console.log(`| search (top_k 10, uncached) | ${search.p50.toFixed(1)} ms | ${search.p99.toFixed(1)} ms |`);
console.log(`| match, a ${CV.length.toLocaleString("en-US")}-character CV (top_k 10) | ${match.p50.toFixed(1)} ms | ${match.p99.toFixed(1)} ms |`);
const ratio = match.p50 / search.p50;
console.log(`match ÷ search (p50): ${ratio.toFixed(1)}× ${ratio <= 3 ? "✓" : "✗"} (goal ≤ 3×)`);

async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}
store.close();
