import { afterAll, expect, test } from "bun:test";
import { createWriteStream, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { ingestRecords } from "../../server/ingest/ingest.ts";
import { openRecords, readRecords } from "../../server/ingest/read.ts";
import { loadEmbedder } from "../../server/embedding/embedder.ts";
import { openStore } from "../../server/store/store.ts";
import { fixturePostings } from "../support/fixtures/postings.ts";
import { MODELS_DIR, ROOT, runCli, SHARED_DATA, tempDir } from "../support/helpers.ts";

/** A load reads any file as a stream, within bounds: gzip bombs, endless lines and huge files stop cleanly. */
const dir = tempDir("jobsearch-bounds-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `count` pieces of `piece` through gzip into `name`, never holding them all. */
async function gzipOf(name: string, piece: Buffer, count: number): Promise<string> {
  const path = join(dir, name);
  const pieces = (function* () {
    for (let i = 0; i < count; i++) yield piece;
  })();
  await pipeline(Readable.from(pieces), createGzip({ level: 9 }), createWriteStream(path));
  return path;
}

test("a gzip bomb (512 MB of zeros in well under 1 MB) stops with a clear error and bounded memory", async () => {
  const bomb = await gzipOf("bomb.jsonl.gz", Buffer.alloc(1024 * 1024), 512);
  expect(Bun.file(bomb).size).toBeLessThan(1024 * 1024);
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  let peak = before;
  const error = await (async () => {
    for await (const _ of await openRecords(bomb)) peak = Math.max(peak, process.memoryUsage().rss);
  })().catch((e: unknown) => e);
  peak = Math.max(peak, process.memoryUsage().rss);
  expect((error as Error).message).toMatch(/bomb\.jsonl\.gz: stopped, it expands more than 100× when gunzipped \(\d+ bytes to over \d+\): not a file of postings/);
  expect(peak - before).toBeLessThan(200 * 1024 * 1024);

  const cli = await runCli(["ingest", bomb], { DATA_DIR: join(dir, "bomb-data") });
  expect(cli.code).toBe(1);
  expect(cli.stderr).toContain("expands more than 100× when gunzipped");
}, 60_000);

test("a file of only newlines is refused without a crash and writes nothing; a line over 1 MiB is refused by its line number, not kept", async () => {
  const newlines = await gzipOf("newlines.jsonl.gz", Buffer.alloc(1024 * 1024, "\n"), 48);
  const cli = await runCli(["ingest", newlines], { DATA_DIR: join(dir, "newline-data") });
  expect(cli.code).toBe(1);
  expect(cli.stderr).toContain("holds no postings (no records, only blank lines or nothing); nothing was written");
  expect(existsSync(join(dir, "newline-data", "jobs.lance"))).toBe(false);

  const posting = JSON.stringify(fixturePostings()[0]);
  const long = join(dir, "long.jsonl");
  await Bun.write(long, `${posting}\n{"job_description":"${"x".repeat(2 * 1024 * 1024)}"}\n${JSON.stringify({ ...fixturePostings()[1] })}\n`);
  const records = await readRecords(long);
  expect(records.map((r) => r.ref)).toEqual(["line 1", "line 2", "line 3"]);
  expect(records[1]).toEqual({ ref: "line 2", parseError: "longer than 1 MiB (a posting is far shorter: a wrong format or a damaged file?)" });
  expect(records[2]!.value).toEqual(fixturePostings()[1]);
});

test("a .json array is read element by element: an element over 1 MiB stops the read, a truncated array is invalid JSON, an object is no array", async () => {
  const huge = join(dir, "huge.json");
  await Bun.write(huge, `[${JSON.stringify(fixturePostings()[0])}, {"job_description": "${"y".repeat(3 * 1024 * 1024)}"}]`);
  await expect(readRecords(huge)).rejects.toThrow(/huge\.json: record 2 is longer than 1 MiB/);
  const cut = join(dir, "cut.json");
  await Bun.write(cut, `[${JSON.stringify(fixturePostings()[0])}, {"id": "x`);
  await expect(readRecords(cut)).rejects.toThrow(/cut\.json is not valid JSON/);
  const object = join(dir, "object.json");
  await Bun.write(object, `  {"postings": []}`);
  await expect(readRecords(object)).rejects.toThrow(/object\.json must hold a JSON array of postings/);
});

test("reading the 29,513 shared postings as a stream keeps memory flat (the whole file read at once grew it by ~210 MB)", async () => {
  // In a process of its own: RSS in the test runner's process says more about the other tests' garbage.
  const script = `
    const { openRecords } = await import(${JSON.stringify(join(ROOT, "server/ingest/read.ts"))});
    const before = process.memoryUsage().rss;
    let peak = before;
    let count = 0;
    for await (const record of await openRecords(${JSON.stringify(SHARED_DATA)})) {
      if (record.value !== undefined) count++;
      if (count % 500 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    console.log(JSON.stringify({ count, grew: peak - before }));
  `;
  const proc = Bun.spawn(["bun", "-e", script], { stdout: "pipe" });
  const { count, grew } = JSON.parse(await new Response(proc.stdout).text()) as { count: number; grew: number };
  expect(count).toBe(29_513);
  console.log(`streaming read of ${count} postings: RSS grew ${Math.round(grew / 1e6)} MB`);
  expect(grew).toBeLessThan(120 * 1024 * 1024);
}, 60_000);

test("an id repeated across batches keeps its last copy and counts as a duplicate; --strict still writes nothing", async () => {
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const store = await openStore({ dataDir: join(dir, "dupes"), modelId: embedder.modelId, dimension: embedder.dimension });
  try {
    const postings = fixturePostings().slice(0, 12);
    const again = { ...postings[0]!, job_title: "Last copy wins" };
    const raw = [...postings, again].map((value, i) => ({ ref: `record ${i + 1}`, value }));
    const summary = await ingestRecords({ store, embedder }, raw, { batchSize: 5 });
    expect(summary).toMatchObject({ inserted: 12, updated: 0, unchanged: 0, duplicates: 1, invalid: 0 });
    const rows = await store.table.query().select(["id", "job_title"]).toArray();
    expect(rows).toHaveLength(12);
    expect(rows.find((row) => row.id === again.id)!.job_title).toBe("Last copy wins");

    const strict = await ingestRecords({ store, embedder }, [...raw, { ref: "record 14", value: { id: "bad" } }], { strict: true, batchSize: 5 }).catch((e: unknown) => e);
    expect((strict as Error).message).toBe("1 invalid record(s); --strict given, nothing was written");
    expect(await store.count()).toBe(12);
  } finally {
    store.close();
  }
});

test("a file without a valid posting writes nothing: not even the empty table of a new DATA_DIR, nor a version of an existing one", async () => {
  const blank = join(dir, "blank.jsonl");
  await Bun.write(blank, "\n\n\n\n");
  const fresh = join(dir, "fresh-data");
  const empty = await runCli(["ingest", blank], { DATA_DIR: fresh });
  expect(empty.code).toBe(1);
  expect(empty.stderr).toContain(`error [INVALID_PARAMETER]: ${blank} holds no postings (no records, only blank lines or nothing); nothing was written`);
  expect(existsSync(join(fresh, "jobs.lance"))).toBe(false);

  const loaded = join(dir, "loaded-data");
  const one = join(dir, "one.jsonl");
  await Bun.write(one, `${JSON.stringify(fixturePostings()[0])}\n`);
  expect((await runCli(["ingest", one], { DATA_DIR: loaded })).code).toBe(0);
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const versionOf = async () => {
    const store = await openStore({ dataDir: loaded, modelId: embedder.modelId, dimension: embedder.dimension });
    try {
      return await store.version();
    } finally {
      store.close();
    }
  };
  const before = await versionOf();
  const invalid = join(dir, "invalid.jsonl");
  await Bun.write(invalid, '{"id":"x"}\n\n');
  const refused = await runCli(["ingest", invalid], { DATA_DIR: loaded });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("skipped line 1:");
  expect(refused.stderr).toContain(`error [INVALID_PARAMETER]: ${invalid} holds no valid posting (1 invalid record(s)); nothing was written`);
  expect((await runCli(["ingest", blank], { DATA_DIR: loaded })).code).toBe(1);
  expect(await versionOf()).toBe(before);
}, 120_000);
