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
  /** SEARCH_CACHE_MB=0, query understanding on, concurrency 16: every request searches; two server processes. */
  uncached: MeasuredLoad;
  /** The same with one server process. */
  uncachedOneProcess: MeasuredLoad;
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

  // One server process, then two on the same port (SERVER_PROCESSES): the scaling over this machine's cores.
  const runs: MeasuredLoad[] = [];
  let check = { checked: 0, empty: 0 };
  for (const processes of [1, 2]) {
    const server = await spawnBenchServer(dataDir, apiKey, { SEARCH_CACHE_MB: "0", SERVER_PROCESSES: String(processes) });
    try {
      if (processes === 1) {
        step(`mix: checking ${sample.length} of ${bodies.length} bodies answer 200 (result cache off)`);
        check = await checkBodies(server.url, apiKey, sample);
      }
      // Each process decodes postings, builds filter selections and the spelling index as searches first need
      // them: every server gets the same warm-up on the mix before it is measured.
      step(`mix, result cache off, ${processes} server process${processes > 1 ? "es" : ""}: ${plan.loadSeconds} s warm-up, then ${plan.loadSeconds} s at concurrency ${MIX_CONNECTIONS}`);
      await runWrk(searchTarget(server.url, apiKey, bodies), MIX_CONNECTIONS, plan.loadSeconds);
      // /metrics answers from the process that took the connection: with two, wrk's answers count the searches.
      const counted = processes === 1 ? { searches: () => searchCount(server.url), settle: () => searchesSettled(server.url) } : {};
      runs.push(await measureLoad(searchTarget(server.url, apiKey, bodies), plan.loadSeconds, {
        cpuMs: () => processTreeCpuMs(server.pid),
        ...counted,
        rss: server.rssMb,
      }));
    } finally {
      await server.stop();
    }
  }
  const [uncachedOneProcess, uncached] = runs as [MeasuredLoad, MeasuredLoad];

  const cachedServer = await spawnBenchServer(dataDir, apiKey);
  try {
    step(`mix, result cache on: ${plan.loadSeconds} s at concurrency ${MIX_CONNECTIONS}`);
    const before = await cacheLookups(cachedServer.url);
    const load = await runWrk(searchTarget(cachedServer.url, apiKey, bodies), MIX_CONNECTIONS, plan.loadSeconds, cachedServer.rssMb);
    const after = await cacheLookups(cachedServer.url);
    const hits = after.hits - before.hits;
    const misses = after.misses - before.misses;
    const cached = { ...load, hits, misses, hitRate: hits / Math.max(1, hits + misses) };
    return { bodies: bodies.length, filtered, checked: check.checked, empty: check.empty, uncached, uncachedOneProcess, cached };
  } finally {
    await cachedServer.stop();
  }
}

/** How measureLoad reads the server it loads. */
export interface LoadProbe {
  /** The server's CPU time so far (ms). */
  cpuMs(): number;
  /** Searches it has run so far; without it, wrk's 200 answers count. */
  searches?(): Promise<number>;
  /** Resolves when the server has finished what the load left queued (read before and after the CPU). */
  settle?(): Promise<void>;
  rss?(): number;
}

/** wrk at concurrency 16 with the CPU the server used over the run divided by the searches it ran. */
export async function measureLoad(target: LoadTarget, seconds: number, probe: LoadProbe): Promise<MeasuredLoad> {
  await probe.settle?.();
  const searchesBefore = probe.searches ? await probe.searches() : 0;
  const cpuBefore = probe.cpuMs();
  const load = await runWrk(target, MIX_CONNECTIONS, seconds, probe.rss);
  await probe.settle?.();
  const cpu = probe.cpuMs() - cpuBefore;
  const counted = probe.searches ? (await probe.searches()) - searchesBefore : Number.NaN;
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

/** Resolves once the server's search count stays put for 100 ms: the searches a load left running are done. */
export async function searchesSettled(url: string): Promise<void> {
  let last = await searchCount(url);
  for (let i = 0; i < 100; i++) {
    await Bun.sleep(100);
    const now = await searchCount(url);
    if (now === last) return;
    last = now;
  }
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
