import { memoryCopyUpTo } from "../../../server/memory/holder.ts";
import { loadConfig } from "../../../server/config.ts";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { searchJobs } from "../../../server/search/search.ts";
import { openStore } from "../../../server/store/store.ts";
import { parseSearchRequest } from "../../../shared/search.ts";
import { MODELS_DIR } from "./dataset.ts";
import { QUERIES } from "./requests.ts";
import { percentile } from "./stats.ts";

export interface EngineCase {
  name: string;
  p50: number;
  p99: number;
}

export interface EngineResult {
  postings: number;
  rounds: number;
  cases: EngineCase[];
}

const CASES: Array<{ name: string; filters: Record<string, unknown>; detail: "summary" | "full" }> = [
  { name: "no filter, summary", filters: {}, detail: "summary" },
  { name: "city, summary", filters: { city: "San Francisco" }, detail: "summary" },
  { name: "country, summary", filters: { country: "GB" }, detail: "summary" },
  { name: "since, summary", filters: { since: "2017-01-01" }, detail: "summary" },
  { name: "no filter, full detail", filters: {}, detail: "full" },
  { name: "city, full detail", filters: { city: "San Francisco" }, detail: "full" },
];

/** p50/p99 of searchJobs in this process (no HTTP), per filter and detail case, after a warm-up. */
export async function measureEngine(dataDir: string, rounds: number): Promise<EngineResult> {
  const config = loadConfig({ ...Bun.env, DATA_DIR: dataDir, MODELS_DIR, DEMO_DATA: "false", LOG_LEVEL: "error" });
  const embedder = await loadEmbedder(config.embedding);
  const store = await openStore({ dataDir: config.dataDir, modelId: embedder.modelId, dimension: embedder.dimension, memoryCopy: memoryCopyUpTo(config.memoryCopyMaxPostings), readConsistencyMs: config.readConsistencyMs });
  await store.warm();
  try {
    const deps = { store, embedder };
    const cases: EngineCase[] = [];
    const embed = await time(rounds, (i) => embedder.embedQuery(`${QUERIES[i % QUERIES.length]} ${i}`));
    cases.push({ name: "embed query only", ...embed });
    for (const { name, filters, detail } of CASES) {
      const request = (i: number) =>
        parseSearchRequest({ q: QUERIES[i % QUERIES.length], ...filters, detail }, "post");
      cases.push({ name, ...(await time(rounds, (i) => searchJobs(deps, request(i)))) });
    }
    return { postings: await store.count(), rounds, cases };
  } finally {
    store.close();
  }
}

// --- internal ---

/** p50 and p99 of `rounds` runs of `run`, after up to 20 unmeasured ones. */
export async function time(rounds: number, run: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(20, rounds); i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}
