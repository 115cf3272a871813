import { FACET_NAMES } from "../../shared/search.ts";
import { EMPLOYMENT_TYPES, SENIORITY_LEVELS } from "../../shared/search-params.ts";
import { KNOWN_CURRENCIES } from "../../server/salary/salary.ts";
import { ingestRecords } from "../../server/ingest/ingest.ts";
import { readRecords } from "../../server/ingest/read.ts";
import { VECTOR_INDEX_MIN_ROWS } from "../../server/store/index-maintenance.ts";
import { SHARED_DATA, seededRandom, startTestServer, type TestServer } from "./helpers.ts";

/*
 * The differential test of the two engines (tests/hardening/engines-agree.test.ts, and the longer run
 * in bench/perf/engines-agree.ts): seeded requests over every search parameter, sent to a server whose
 * searches the in-memory copy answers and to one over the same table whose bound
 * (HOT_PATH_MAX_POSTINGS) is below it, so LanceDB answers. Both must give the same status and error
 * body, the same ids in the same order, the same facets and totals.
 */

/** Every `step`-th posting of the shared data. */
export async function samplePostings(step: number): Promise<Array<Record<string, any>>> {
  return (await readRecords(SHARED_DATA)).filter((_, i) => i % step === 0).map((record) => record.value as Record<string, any>);
}

export interface EnginePair {
  memory: TestServer;
  lance: TestServer;
  stop(): Promise<void>;
}

/**
 * Two servers on one table: the first answers from memory, the second from LanceDB (the table is above
 * its bound). `loaded`: a DATA_DIR already holding `postings` (loaded with the default
 * VECTOR_INDEX_MIN_ROWS), served instead of loading them.
 */
export async function startEnginePair(postings: object[], env: Record<string, string> = {}, loaded?: string): Promise<EnginePair> {
  const open: Record<string, string> = { SEARCH_CACHE_MB: "0", RATE_LIMIT_PER_MINUTE: "1000000", MAX_IN_FLIGHT_PER_KEY: "64", ...env };
  const memory = await startTestServer({ env: open, ...(loaded === undefined ? {} : { dataDir: loaded }) });
  if (loaded === undefined) {
    // Loaded here rather than by startTestServer: a VECTOR_INDEX_MIN_ROWS in `env` must hold for the load's own index build too.
    const records = postings.map((value, i) => ({ ref: `record ${i + 1}`, value }));
    await ingestRecords(memory.server, records, { vectorIndexMinRows: Number(open.VECTOR_INDEX_MIN_ROWS ?? VECTOR_INDEX_MIN_ROWS) });
    await memory.server.store.warm();
  }
  const lance = await startTestServer({ dataDir: memory.dataDir, env: { ...open, HOT_PATH_MAX_POSTINGS: String(Math.max(1, Math.floor(postings.length / 2))) } });
  if (!("version" in (memory.server.store.memoryCopy() ?? {}))) throw new Error("the memory server holds no copy");
  if (!("skipped" in (lance.server.store.memoryCopy() ?? {}))) throw new Error("the LanceDB server holds a copy");
  return {
    memory,
    lance,
    async stop() {
      await lance.server.stop();
      await memory.stop();
    },
  };
}

/** `count` requests from `seed`: POST bodies (and a share as GET query strings), hostile and extreme values among plain ones. */
export function engineRequests(seed: number, count: number, postings: Array<Record<string, any>>): EngineRequest[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const maybe = (p: number) => random() < p;
  const some = <T>(values: readonly T[], most = 3): T[] => [...new Set(Array.from({ length: 1 + Math.floor(random() * most) }, () => pick(values)))];
  const present = (field: string) => [...new Set(postings.map((p) => p[field]).filter((v) => typeof v === "string" && v !== ""))] as string[];
  const [cities, countries, companies, sources, titles] = [present("city"), present("country"), present("company_name"), present("data_source"), present("job_title")];
  const tags = [...new Set(postings.flatMap((p) => (p.job_tags ?? []) as string[]))];
  const hostile = ["", " ", "' OR 1=1 --", "a\u0000b", "\u0000", "北京", "软件工程师", "O'Brien & \"Sons\"", "%_\\", "x".repeat(256), "x".repeat(257), "🚀", "NULL"];
  const numbers = [0, -1, 1, 5e-324, 1e-300, 0.5, 2.5, 1e9, 1e15, 1e308, 1.7e308, Number.MAX_VALUE, 20_000, 20_001, "100", null, true];
  const queries = () => pick([pick(titles), pick(titles).split(" ")[0]!, "engineer", "registered nurse", "remote python developer in Berlin",
    "senior data scientist", "part-time barista", "jobs", "internship", "软件工程师", "Rust 工程师", "x".repeat(1000), "x".repeat(1001), ...hostile]);
  const out: EngineRequest[] = [];
  for (let i = 0; i < count; i++) {
    const body: Record<string, unknown> = {};
    if (!maybe(0.03)) body.q = queries();
    if (maybe(0.25)) body.city = maybe(0.8) ? (maybe(0.7) ? pick(cities) : some(cities)) : pick<unknown>([...hostile, 42, ["Berlin", 3], []]);
    if (maybe(0.2)) body.country = maybe(0.85) ? (maybe(0.7) ? pick(countries) : some(countries)) : pick(["de", "ZZ", "USA", "", 1]);
    if (maybe(0.15)) body.since = pick(["2015-01-01", "2018-06-30 12:00:00", "2020-02-30", "0000-01-01", "9999-12-31 23:59:59", "yesterday", ""]);
    if (maybe(0.1)) body.until = pick(["2016-01-01", "2019-12-31 23:59:59", "2013-13-01", "1970-01-01"]);
    if (maybe(0.1)) body.source = maybe(0.8) ? pick(sources) : pick(["nowhere", "' OR 1=1 --", ""]);
    if (maybe(0.15)) body.remote = maybe(0.9) ? maybe(0.5) : pick(["yes", 1]);
    if (maybe(0.15)) body.seniority = maybe(0.9) ? some(SENIORITY_LEVELS) : pick(["senior", ["boss"], [1]]);
    if (maybe(0.15)) body.employment_type = maybe(0.9) ? some(EMPLOYMENT_TYPES) : pick([["full-time"], ["gig"]]);
    if (maybe(0.12)) body.tags = maybe(0.85) ? some(tags.map((t) => t.toLowerCase())) : pick([["a\u0000b"], Array.from({ length: 21 }, (_, j) => `t${j}`), "python"]);
    if (maybe(0.08)) body.company = maybe(0.7) ? pick(companies) : pick(hostile);
    if (maybe(0.1)) body.near = pick(["London", "Berlin", "San Francisco", "Mountain View, CA", "Cambridge, GB", "Nowhere Land", "", "' OR 1=1 --"]);
    if (maybe(0.1)) body.radius_km = pick([...numbers, 10, 50, 200]);
    if (maybe(0.2)) body.salary_min = maybe(0.6) ? pick([30_000, 60_000, 100_000, 150_000]) : pick(numbers);
    if (maybe(0.12)) body.salary_max = maybe(0.6) ? pick([50_000, 90_000, 200_000]) : pick(numbers);
    if (maybe(0.3)) body.salary_currency = pick([...KNOWN_CURRENCIES, "XXX", "usd", "US", "", 7]);
    if (maybe(0.12)) body.include_unknown_salary = maybe(0.9) ? maybe(0.5) : "true";
    if (maybe(0.3)) body.top_k = pick([1, 5, 20, 50, 100, 0, -5, 101, 1e308, 2.5, "10"]);
    if (maybe(0.25)) body.offset = pick([0, 10, 50, 200, 480, 900, 950, 999, 1000, -1, 1e308, 1.5]);
    if (maybe(0.15)) body.detail = pick(["summary", "full", "FULL"]);
    if (maybe(0.2)) body.sort = pick(["date", "relevance", "score"]);
    if (maybe(0.15)) body.min_score = pick([0, 0.3, 0.5, 0.8, 1, 1.1, -0.1, 1e-300]);
    if (maybe(0.15)) body.collapse = maybe(0.5);
    if (maybe(0.2)) body.facets = maybe(0.9) ? some(FACET_NAMES, FACET_NAMES.length) : pick([["cities"], "city"]);
    if (maybe(0.2)) body.understand = maybe(0.5);
    if (maybe(0.15)) body.explain = maybe(0.7);
    out.push({ via: maybe(0.15) ? "get" : "post", body });
  }
  return out;
}

export interface EngineRequest {
  via: "get" | "post";
  body: Record<string, unknown>;
}

/** What must agree: the status, an error's body, or each result's id and ranks, the facets and totals (request ids and times left out). */
export async function answer(server: TestServer, request: EngineRequest): Promise<unknown> {
  const response = request.via === "post"
    ? await fetch(`${server.url}/v1/search`, { method: "POST", headers: { "x-api-key": server.apiKey, "content-type": "application/json" }, body: JSON.stringify(request.body) })
    : await fetch(`${server.url}/v1/search?${queryString(request.body)}`, { headers: { "x-api-key": server.apiKey } });
  const body = (await response.json()) as Record<string, any>;
  if (response.status !== 200) return { status: response.status, error: body.error, error_code: body.error_code };
  const { request_id: _, search_time_ms: __, results, ...rest } = body;
  const ranked = (results as Array<Record<string, unknown>>).map((r) => [r.id, r.bm25_rank, r.vector_rank, r.job_description_truncated ?? false, typeof r.job_description]);
  return { status: 200, ...rest, results: ranked };
}

/** Every request sent to both, `concurrency` at a time; the ones whose answers differ. */
export async function disagreements(pair: EnginePair, requests: EngineRequest[], concurrency = 4): Promise<Array<{ request: EngineRequest; memory: unknown; lance: unknown }>> {
  const found: Array<{ request: EngineRequest; memory: unknown; lance: unknown }> = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const [memory, lance] = await Promise.all([answer(pair.memory, request), answer(pair.lance, request)]);
      if (!Bun.deepEquals(memory, lance)) found.push({ request, memory, lance });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return found;
}

// --- internal ---

/** A body as a GET query string: lists comma-separated (city and country repeated), the rest as text. */
function queryString(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value) && (name === "city" || name === "country")) for (const item of value) params.append(name, String(item));
    else params.append(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  return params.toString();
}
