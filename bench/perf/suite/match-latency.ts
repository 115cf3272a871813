/**
 * `bun bench/perf/suite/match-latency.ts [DATA_DIR]`: a match of a two-page CV against a search, side by
 * side in one process on the same table (default: the relevance evaluation's, bench/.data/eval), p50 and
 * p99 of each and their ratio (issue 25's goal: a match costs at most 3 searches). Two kinds of match:
 * the same CV each time (its page's postings' skills were read before and are kept with the version's
 * vocabulary, as searches keep decoded postings), and the CV of a person in another of the data's
 * ROUNDS busiest cities each time (where they are ranks first, so most of each page was never read).
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
const cities = (await store.facets()).cityCounts.slice(0, ROUNDS).map(({ city, country }) => [city, country].filter(Boolean).join(", "));
const runElsewhere = (i: number) => matchJobs(deps, parseMatchRequest({ profile: twoPageCv(cities[i % cities.length]!), top_k: 10 }, "post"));
for (let i = 0; i < 20; i++) await Promise.all([runSearch(i), runMatch(i)]);
const times = { search: [] as number[], match: [] as number[], elsewhere: [] as number[] };
for (let i = 0; i < ROUNDS; i++) {
  times.search.push(await elapsed(() => runSearch(i)));
  times.match.push(await elapsed(() => runMatch(i)));
  times.elsewhere.push(await elapsed(() => runElsewhere(i)));
}
const search = percentile(times.search, 50);
console.log(`| | p50 | p99 | ÷ search (p50) |\n|---|---|---|---|`);
const row = (label: string, samples: number[]) => {
  const ratio = percentile(samples, 50) / search;
  const mark = samples === times.search ? "" : `${ratio.toFixed(1)}× ${ratio <= 3 ? "✓" : "✗"}`;
  console.log(`| ${label} | ${percentile(samples, 50).toFixed(1)} ms | ${percentile(samples, 99).toFixed(1)} ms | ${mark} |`);
};
row("search (top_k 10, uncached)", times.search);
row(`match, a ${CV.length.toLocaleString("en-US")}-character CV (top_k 10), the same each time`, times.match);
row(`match, the CV of a person in another of ${cities.length} cities each time`, times.elsewhere);
console.log("goal: a match ≤ 3× a search");

async function elapsed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}
store.close();
