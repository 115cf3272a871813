import { processTreeCpuMs } from "./cpu.ts";
import { runWrk, type LoadResult, type LoadTarget } from "./load.ts";
import { filteredShare, type MixBody } from "./mix.ts";
import { checkBodies } from "./sanity.ts";
import { spawnBenchServer } from "./server.ts";

/** A load run with the CPU its server used. */
export interface MeasuredLoad extends LoadResult {
  /** Searches the server ran during the load (its own count when it has one, else wrk's answers). */
  searches: number;
  cpuMs: number;
  cpuMsPerSearch: number;
}

export interface MixResult {
  bodies: number;
  /** Share of bodies with at least one filter. */
  filtered: number;
  /** Bodies sent once before the load (all of them, or a sample in a quick run), all answered 200. */
  checked: number;
  /** Of those, answers with no result. */
  empty: number;
  /** SEARCH_CACHE_MB=0, query understanding on, concurrency 16: every request searches. */
  uncached: MeasuredLoad;
  /** The same mix on a server with the default result cache, from an empty cache. */
  cached: LoadResult & { hits: number; misses: number; hitRate: number };
}

export const MIX_CONNECTIONS = 16;

/**
 * The mix at concurrency 16 against a server without result cache (CPU per search from /proc), then
 * against one with the default cache (hit rate from its /metrics). Each body is checked once first on
 * the uncached server (`checkAll`; else an even sample of 300), which also warms it.
 */
export async function measureMix(
  dataDir: string, apiKey: string, mix: MixBody[], plan: { loadSeconds: number; checkAll: boolean }, step: (text: string) => void,
): Promise<MixResult> {
  const bodies = mix.map((body) => JSON.stringify(body));
  const filtered = filteredShare(mix);
  const sample = plan.checkAll ? bodies : evenSample(bodies, 300);

  const uncachedServer = await spawnBenchServer(dataDir, apiKey, { SEARCH_CACHE_MB: "0" });
  let check: { checked: number; empty: number };
  let uncached: MeasuredLoad;
  try {
    step(`mix: checking ${sample.length} of ${bodies.length} bodies answer 200 (result cache off)`);
    check = await checkBodies(uncachedServer.url, apiKey, sample);
    step(`mix, result cache off: ${plan.loadSeconds} s at concurrency ${MIX_CONNECTIONS}`);
    const target = searchTarget(uncachedServer.url, apiKey, bodies);
    uncached = await measureLoad(target, plan.loadSeconds, () => processTreeCpuMs(uncachedServer.pid), () => searchCount(uncachedServer.url), uncachedServer.rssMb);
  } finally {
    await uncachedServer.stop();
  }

  const cachedServer = await spawnBenchServer(dataDir, apiKey);
  try {
    step(`mix, result cache on: ${plan.loadSeconds} s at concurrency ${MIX_CONNECTIONS}`);
    const before = await cacheLookups(cachedServer.url);
    const load = await runWrk(searchTarget(cachedServer.url, apiKey, bodies), MIX_CONNECTIONS, plan.loadSeconds, cachedServer.rssMb);
    const after = await cacheLookups(cachedServer.url);
    const hits = after.hits - before.hits;
    const misses = after.misses - before.misses;
    const cached = { ...load, hits, misses, hitRate: hits / Math.max(1, hits + misses) };
    return { bodies: bodies.length, filtered, checked: check.checked, empty: check.empty, uncached, cached };
  } finally {
    await cachedServer.stop();
  }
}

/** wrk at concurrency 16 with the CPU `cpuMs` reports over the run divided by the searches `searches` counts. */
export async function measureLoad(
  target: LoadTarget, seconds: number, cpuMs: () => number, searches?: () => Promise<number>, rss?: () => number,
): Promise<MeasuredLoad> {
  const searchesBefore = searches ? await searches() : 0;
  const cpuBefore = cpuMs();
  const load = await runWrk(target, MIX_CONNECTIONS, seconds, rss);
  const cpu = cpuMs() - cpuBefore;
  const counted = searches ? (await searches()) - searchesBefore : Number.NaN;
  const served = Number.isFinite(counted) ? counted : load.requests - load.non200;
  return { ...load, searches: served, cpuMs: cpu, cpuMsPerSearch: cpu / Math.max(1, served) };
}

export function searchTarget(url: string, apiKey: string, bodies: string[]): LoadTarget {
  return { url: `${url}/v1/search`, headers: { "content-type": "application/json", "x-api-key": apiKey }, bodies };
}

/** REST searches the server has completed (its jobsearch_search_duration_seconds count). */
export async function searchCount(url: string): Promise<number> {
  return sampleValue(await scrape(url), 'jobsearch_search_duration_seconds_count{interface="rest"}');
}

// --- internal ---

async function cacheLookups(url: string): Promise<{ hits: number; misses: number }> {
  const text = await scrape(url);
  return {
    hits: sampleValue(text, 'jobsearch_result_cache_lookups_total{result="hit"}'),
    misses: sampleValue(text, 'jobsearch_result_cache_lookups_total{result="miss"}'),
  };
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  return response.text();
}

/** The value of the sample written exactly `series` (name and labels); NaN when the server has no such series. */
function sampleValue(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}

/** `n` items spread evenly over `items` (all of them when there are fewer). */
function evenSample<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}
