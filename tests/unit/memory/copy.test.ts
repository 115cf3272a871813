import { rmSync } from "node:fs";
import { loadEmbedder, type Embedder } from "../../../server/embedding/embedder.ts";
import { NO_FILTERS, filterSet } from "../../../server/store/filter-set.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ANN_MAX_LIMIT } from "../../../server/store/read.ts";
import { openStore, type JobStore } from "../../../server/store/store.ts";
import { memoryCopyUpTo } from "../../../server/memory/holder.ts";
import { keywordClauses } from "../../../server/rank/keyword-query.ts";
import type { SearchFilters } from "../../../shared/search.ts";
import { searchJobs } from "../../../server/search/search.ts";
import { parseSearchRequest } from "../../../shared/search.ts";
import wabt from "wabt";
import { DOT_WASM_BASE64 } from "../../../server/memory/dot-wasm.ts";
import { seededRandom, tempDir, testConfig } from "../../support/helpers.ts";
import { loadedSample } from "../../support/stores.ts";

/*
 * The in-memory copy (server/memory/) against LanceDB on the same table: every filter admits the
 * same postings, nearest neighbours are the same, keyword matches agree, and the copy follows
 * the table's version. Every 8th posting of the shared data (~3,700 real postings).
 */
let dataDir: string;
let embedder: Embedder;
let lance: JobStore;
let hot: JobStore;
let sample: Array<Record<string, any>>;

beforeAll(async () => {
  const loaded = await loadedSample(8);
  sample = loaded.postings;
  dataDir = loaded.dataDir;
  // The store a server opens (its in-memory copy, its read consistency) and its embedder, without the
  // server around them: nothing here goes over HTTP.
  const config = testConfig(dataDir);
  embedder = await loadEmbedder(config.embedding);
  const model = { modelId: embedder.modelId, dimension: embedder.dimension };
  hot = await openStore({ dataDir, ...model, readConsistencyMs: config.readConsistencyMs, memoryCopy: memoryCopyUpTo(config.memoryCopyMaxPostings) });
  await hot.warm();
  lance = await openStore({ dataDir, ...model });
}, 180_000);
afterAll(async () => {
  lance.close();
  await hot.settle();
  hot.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Filters built from the sample's own values, seeded, each kind alone and in pairs. */
function filterCases(): Array<{ filters: SearchFilters; inferred?: SearchFilters }> {
  const random = seededRandom(17);
  const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)]!;
  const present = (field: string) => [...new Set(sample.map((p) => p[field]).filter((v) => v))] as string[];
  const tags = [...new Set(sample.flatMap((p) => (p.job_tags ?? []).map((tag: string) => tag.toLowerCase())))];
  const ts = (text: string) => Date.parse(`${text}T00:00:00Z`) / 1000;
  const single: Array<() => { filters: SearchFilters; inferred?: SearchFilters }> = [
    () => ({ filters: { city: pick(present("city")) } }),
    () => ({ filters: { country: pick(present("country")) } }),
    () => ({ filters: { city: [pick(present("city")), pick(present("city")), "Nowhere"] } }),
    () => ({ filters: { country: [pick(present("country")), pick(present("country"))] } }),
    () => ({ filters: {}, inferred: { city: [pick(present("city")), pick(present("city"))], country: [pick(present("country")), "ZZ"] } }),
    () => ({ filters: { source: pick(present("data_source")) } }),
    () => ({ filters: { company: pick(present("company_name")) } }),
    () => ({ filters: { since: ts(pick(["2014-01-01", "2016-06-01", "2019-01-01"])) } }),
    () => ({ filters: { until: ts(pick(["2015-01-01", "2017-06-01", "2021-01-01"])) } }),
    () => ({ filters: { remote: random() < 0.5 } }),
    () => ({ filters: { seniority: [pick(["senior", "junior", "intern", "lead", "mid"])] } }),
    () => ({ filters: { employment_type: [pick(["FULL_TIME", "PART_TIME", "CONTRACTOR", "INTERN"])] } }),
    () => ({ filters: { tags: [pick(tags)] } }),
    () => ({ filters: { near: { place: pick(["London", "Berlin", "San Francisco", "Mountain View, CA"]), radiusKm: pick([10, 50, 200]) } } }),
    () => ({ filters: { salary_min: { amount: pick([50_000, 100_000, 150_000]), currency: pick(["USD", "EUR"]), includeUnknown: random() < 0.5 } } }),
    () => ({ filters: { salary_max: { amount: pick([60_000, 120_000]), currency: "USD", includeUnknown: random() < 0.5 } } }),
    () => ({ filters: {}, inferred: { remote: random() < 0.5 } }),
    () => ({ filters: {}, inferred: { seniority: [pick(["senior", "junior", "intern", "mid"])] } }),
    () => ({ filters: {}, inferred: { employment_type: [pick(["FULL_TIME", "PART_TIME", "CONTRACTOR", "INTERN", "TEMPORARY"])] } }),
  ];
  const cases = single.map((make) => make());
  for (let i = 0; i < 40; i++) {
    const [a, b] = [pick(single)(), pick(single)()];
    cases.push({ filters: { ...a.filters, ...b.filters }, inferred: { ...a.inferred, ...b.inferred } });
  }
  return cases;
}

test("the vector kernel is its source, compiled (server/memory/dot.wat)", async () => {
  const source = await Bun.file(new URL("../../../server/memory/dot.wat", import.meta.url)).text();
  const compiled = (await wabt()).parseWat("dot.wat", source, { simd: true }).toBinary({}).buffer;
  expect(Buffer.from(compiled).toString("base64")).toBe(DOT_WASM_BASE64);
});

describe("the in-memory copy", () => {
  test("holds the table's current version", async () => {
    expect(hot.memoryCopy()).toMatchObject({ version: await hot.version(), postings: sample.length });
  });

  test("admits exactly the postings LanceDB's predicate admits, nearest first", async () => {
    const vector = await embedder.embedQuery("software engineer");
    for (const { filters, inferred } of filterCases()) {
      // Deeper than the table: both paths read every admitted posting exactly.
      const fromLance = await lance.nearest(vector, filterSet(filters, inferred), 10_000);
      const fromMemory = await hot.nearest(vector, filterSet(filters, inferred), 10_000);
      const label = JSON.stringify({ filters, inferred });
      expect({ label, ids: fromMemory.map((r) => r.row.id).sort() }).toEqual({ label, ids: fromLance.map((r) => r.row.id).sort() });
      expect(fromMemory.slice(0, 20).map((r) => r.row.id)).toEqual(fromLance.slice(0, 20).map((r) => r.row.id));
    }
  });

  test("nearest neighbours are LanceDB's exact ones", async () => {
    let found = 0;
    const queries = sample.slice(0, 30).map((p) => `${p.job_title} ${p.city ?? ""}`);
    for (const q of queries) {
      const vector = await embedder.embedQuery(q);
      // A list longer than ANN_MAX_LIMIT is LanceDB's exact search, index or none; no deeper (the whole
      // table, as it was: each query then read ~3,700 rows' columns, 6.6 s of the suite).
      const exact = new Set((await lance.nearest(vector, NO_FILTERS, ANN_MAX_LIMIT + 1)).slice(0, 50).map((r) => r.row.id));
      found += (await hot.nearest(vector, NO_FILTERS, 50)).filter((r) => exact.has(r.row.id)).length;
    }
    // The same up to float rounding at the 50th place.
    expect(found / (50 * queries.length)).toBeGreaterThanOrEqual(0.99);
  });

  test("keyword matches are LanceDB's: the same ids in the same order, scores to float32 rounding", async () => {
    const queries = ["python developer", "registered nurse", "sales manager", "data scientist", "react frontend", "accountant", "we are hiring"];
    for (const text of queries) {
      for (const cjk of [[], ["工程", "程师"]]) {
        const spec = keywordClauses({ text, expansions: [{ text: "software engineer", weight: 0.6 }], cjk });
        const fromMemory = await hot.keyword(spec, NO_FILTERS, 50);
        const fromLance = await lance.keyword(spec, NO_FILTERS, 50);
        expect({ text, ids: fromMemory.map((r) => r.row.id) }).toEqual({ text, ids: fromLance.map((r) => r.row.id) });
        fromMemory.forEach((r, i) => expect(Math.abs(r.score - fromLance[i]!.score)).toBeLessThanOrEqual(1e-6 * r.score));
      }
    }
  });

  test("after a write, LanceDB answers until the new version is held, and the deleted posting is gone from both", async () => {
    const request = parseSearchRequest({ q: sample[0]!.job_title, top_k: 5, collapse: false }, "post");
    const before = await searchJobs({ store: hot, embedder: embedder }, request);
    const gone = before.results[0]!.id;
    const old = await hot.version();
    expect(await hot.remove(`id = '${gone.replaceAll("'", "''")}'`)).toBe(1);
    expect(await hot.version()).toBeGreaterThan(old);
    const during = await searchJobs({ store: hot, embedder: embedder }, request);
    expect(during.results.map((r) => r.id)).not.toContain(gone);
    await hot.warm();
    expect(hot.memoryCopy()).toMatchObject({ version: await hot.version(), postings: sample.length - 1 });
    const after = await searchJobs({ store: hot, embedder: embedder }, request);
    expect(after.results.map((r) => r.id)).not.toContain(gone);
  });

  test("a table over the bound is not held: LanceDB answers", async () => {
    const bounded = await openStore({ dataDir, modelId: embedder.modelId, dimension: embedder.dimension, memoryCopy: memoryCopyUpTo(100) });
    try {
      await bounded.warm();
      expect(bounded.memoryCopy()).toEqual({ skipped: expect.stringContaining("HOT_PATH_MAX_POSTINGS 100") });
      const vector = await embedder.embedQuery("nurse");
      expect((await bounded.nearest(vector, NO_FILTERS, 10)).length).toBe(10);
    } finally {
      bounded.close();
    }
  });

  test("an empty table is held too, and a search of it finds nothing", async () => {
    const emptyDir = tempDir("jobsearch-empty-");
    const empty = await openStore({ dataDir: emptyDir, modelId: embedder.modelId, dimension: embedder.dimension, memoryCopy: memoryCopyUpTo(100) });
    try {
      await empty.warm();
      expect(empty.memoryCopy()).toMatchObject({ postings: 0 });
      const vector = await embedder.embedQuery("nurse");
      expect(await empty.nearest(vector, NO_FILTERS, 10)).toEqual([]);
      expect(await empty.nearest(vector, filterSet({ remote: true }), 10)).toEqual([]);
    } finally {
      empty.close();
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });
});
