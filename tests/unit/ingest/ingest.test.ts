import { cleanCity } from "../../../server/ingest/city.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ingestFile, ingestRecords, StrictIngestError, formatSummary } from "../../../server/ingest/ingest.ts";
import { loadEmbedder, type Embedder } from "../../../server/embedding/embedder.ts";
import { openStore, type JobStore } from "../../../server/store/store.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { MODELS_DIR, runCli, startTestServer, tempDir, until } from "../../support/helpers.ts";

let embedder: Embedder;
let dir: string;
let store: JobStore;

beforeAll(async () => {
  embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
});

async function freshStore(): Promise<JobStore> {
  dir = tempDir();
  store = await openStore({ dataDir: dir, modelId: embedder.modelId, dimension: embedder.dimension });
  return store;
}

afterAll(() => {
  store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const asRaw = (values: unknown[]) => values.map((value, i) => ({ ref: `line ${i + 1}`, value }));

describe("validation", () => {
  test("reports invalid records by line and skips them", async () => {
    const s = await freshStore();
    const good = fixturePostings().slice(0, 3);
    const records = [
      good[0],
      { ...good[1], publish_time: "2024-13-01 00:00:00" },
      { ...good[2], country: "usa" },
      { ...good[2], id: "bad-salary", base_salary: "lots" },
      { ...good[2], id: "no-url", job_url: undefined },
      { ...good[2], id: "no-description", job_description: "" },
      { ...good[2], id: "no-source", data_source: undefined },
      "not an object",
      good[2],
    ];
    const summary = await ingestRecords({ store: s, embedder }, asRaw(records));
    expect(summary.inserted).toBe(2);
    expect(summary.invalid).toBe(7);
    expect(summary.problems.map((p) => p.ref)).toEqual(["line 2", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8"]);
    expect(summary.problems[0]!.problem).toBe("publish_time must be YYYY-MM-DD HH:MM:SS");
    expect(summary.problems[1]!.problem).toStartWith("country must be two uppercase letters");
    expect(summary.problems[3]!.problem).toBe("job_url is required");
    expect(summary.problems[5]!.problem).toBe("data_source is required");
    expect(await s.count()).toBe(2);
  });

  test("--strict aborts before anything is written", async () => {
    const s = await freshStore();
    const good = fixturePostings();
    const records = [...good.slice(0, 10), { ...good[10], publish_time: "yesterday" }];
    const error = await ingestRecords({ store: s, embedder }, asRaw(records), { strict: true }).catch((e) => e);
    expect(error).toBeInstanceOf(StrictIngestError);
    expect((error as StrictIngestError).problems).toEqual([{ ref: "line 11", problem: "publish_time must be YYYY-MM-DD HH:MM:SS" }]);
    expect(await s.count()).toBe(0);
  });

  test("derives a stable id from job_url when id is missing", async () => {
    const s = await freshStore();
    const { id: _, ...withoutId } = fixturePostings()[0]!;
    await ingestRecords({ store: s, embedder }, asRaw([withoutId]));
    const again = await ingestRecords({ store: s, embedder }, asRaw([withoutId]));
    expect(again.unchanged).toBe(1);
    const [stored] = await s.table.query().select(["id"]).toArray();
    expect(stored.id).toMatch(/^url-[0-9a-f]{16}$/);
  });
});

describe("upsert", () => {
  test("re-running a load changes nothing; an updated record replaces the old one", async () => {
    const s = await freshStore();
    const postings = fixturePostings();
    const first = await ingestRecords({ store: s, embedder }, asRaw(postings), { batchSize: 10 });
    expect(first).toMatchObject({ inserted: 42, updated: 0, unchanged: 0, invalid: 0 });
    const version = await s.table.version();

    const second = await ingestRecords({ store: s, embedder }, asRaw(postings), { batchSize: 10 });
    expect(second).toMatchObject({ inserted: 0, updated: 0, unchanged: 42 });
    expect(await s.table.version()).toBe(version);

    const changed = postings.map((p) => (p.id === "fx-07" ? { ...p, job_title: "Chief Nursing Officer" } : p));
    const third = await ingestRecords({ store: s, embedder }, asRaw(changed));
    expect(third).toMatchObject({ inserted: 0, updated: 1, unchanged: 41 });
    expect(await s.count()).toBe(42);
    const [row] = await s.table.query().where("id = 'fx-07'").select(["job_title"]).toArray();
    expect(row.job_title).toBe("Chief Nursing Officer");
  });

  test("the last copy of an id within one load wins", async () => {
    const s = await freshStore();
    const [a] = fixturePostings();
    const summary = await ingestRecords({ store: s, embedder }, asRaw([a, { ...a!, job_title: "Second copy" }]));
    expect(summary).toMatchObject({ inserted: 1, duplicates: 1 });
    const [row] = await s.table.query().select(["job_title"]).toArray();
    expect(row.job_title).toBe("Second copy");
  });

  test("builds the scalar and full-text indexes after a load", async () => {
    const s = await freshStore();
    await ingestRecords({ store: s, embedder }, asRaw(fixturePostings()));
    const indexed = (await s.table.listIndices()).flatMap((index) => index.columns).sort();
    expect(indexed).toEqual([
      "city", "cjk_text", "country", "data_source", "employment_type", "id", "job_description", "job_title", "lat", "publish_ts",
      "salary_max_usd", "salary_min_usd", "seniority_level", "tag_keys",
    ]);
  });
});

describe("files", () => {
  test("reads .json arrays, .jsonl and .jsonl.gz", async () => {
    const s = await freshStore();
    const postings = fixturePostings();
    await Bun.write(join(dir, "a.json"), JSON.stringify(postings.slice(0, 5)));
    await Bun.write(join(dir, "b.jsonl"), `${postings.slice(5, 10).map((p) => JSON.stringify(p)).join("\n")}\n{broken\n`);
    await Bun.write(join(dir, "c.jsonl.gz"), Bun.gzipSync(postings.slice(10).map((p) => JSON.stringify(p)).join("\n")));
    expect((await ingestFile({ store: s, embedder }, join(dir, "a.json"))).inserted).toBe(5);
    const b = await ingestFile({ store: s, embedder }, join(dir, "b.jsonl"));
    expect(b.inserted).toBe(5);
    expect(b.problems).toEqual([{ ref: "line 6", problem: "not valid JSON" }]);
    expect((await ingestFile({ store: s, embedder }, join(dir, "c.jsonl.gz"))).inserted).toBe(32);
    await expect(ingestFile({ store: s, embedder }, join(dir, "d.csv"))).rejects.toThrow(/no such file|unsupported/);
  });
});

describe("cli ingest", () => {
  test("prints skipped lines and the summary line, and is idempotent", async () => {
    const data = tempDir();
    const file = join(data, "postings.jsonl");
    const postings = fixturePostings();
    await Bun.write(file, [...postings.map((p) => JSON.stringify(p)), JSON.stringify({ ...postings[0], id: "x", country: "Germany" })].join("\n"));
    const first = await runCli(["ingest", file], { DATA_DIR: data });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("skipped line 43: country must be two uppercase letters");
    expect(first.stdout).toMatch(/^ingested 42 new, 0 updated, 1 skipped in \d+\.\d s \(\d+\/s\)$/m);
    const second = await runCli(["ingest", file], { DATA_DIR: data });
    expect(second.stdout).toMatch(/^ingested 0 new, 0 updated, 43 skipped in /m);
    const strict = await runCli(["ingest", "--strict", file], { DATA_DIR: data });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("--strict given, nothing was written");
    rmSync(data, { recursive: true, force: true });
  });
});

test("formatSummary counts invalid, duplicate and unchanged records as skipped", () => {
  const line = formatSummary({ inserted: 5, updated: 2, unchanged: 3, invalid: 1, duplicates: 1, citiesCleaned: 0, problems: [], seconds: 2 });
  expect(line).toBe("ingested 5 new, 2 updated, 5 skipped in 2.0 s (6/s)");
  const cleaned = formatSummary({ inserted: 5, updated: 0, unchanged: 0, invalid: 0, duplicates: 0, citiesCleaned: 2, problems: [], seconds: 1, removed: 3 });
  expect(cleaned).toBe("ingested 5 new, 0 updated, 0 skipped, 3 removed (missing from the file) in 1.0 s (5/s); 2 street addresses or postal codes taken out of city");
});

test("street addresses leave the city empty, a postal code is cut off, places named like streets stay", () => {
  for (const [given, stored] of [
    ["88 Stevenson St", null], ["1455 Market St #600", null], ["Louis Street", null], ["N Chicago St", null], ["Glasgow Drive", null],
    ["00100 Helsinki", "Helsinki"], ["88131 Lindau", "Lindau"],
    ["Kennett Square", "Kennett Square"], ["San Francisco", "San Francisco"], ["St. Louis", "St. Louis"], ["北京", "北京"],
  ] as const) {
    expect(cleanCity(given).city).toBe(stored);
  }
});

test("a CLI ingest into a running server's DATA_DIR shows up without a restart, within READ_CONSISTENCY_MS", async () => {
  const t = await startTestServer({ records: fixturePostings().slice(0, 2), env: { READ_CONSISTENCY_MS: "1000" } });
  const search = async (body: object) => {
    const response = await fetch(`${t.url}/v1/search`, { method: "POST", headers: { "x-api-key": t.apiKey }, body: JSON.stringify(body) });
    return (await response.json()) as { total: number; error?: string };
  };
  expect((await search({ q: "nurse", top_k: 100 })).total).toBe(2);
  const file = join(t.dataDir, "more.jsonl");
  const more = fixturePostings().slice(2).map((p) => ({ ...p, data_source: "glassdoor" }));
  await Bun.write(file, more.map((p) => JSON.stringify(p)).join("\n"));
  const ingested = await runCli(["ingest", file], { DATA_DIR: t.dataDir });
  expect(ingested.code).toBe(0);
  // The server looks for other processes' writes every READ_CONSISTENCY_MS: wait for it to see them.
  await until(() => search({ q: "nurse", top_k: 100 }), (page) => page.total === 42, 100);
  // The allowed sources follow the data too.
  expect((await search({ q: "nurse", source: "glassdoor", top_k: 100 })).total).toBe(40);
  await t.stop();
});
