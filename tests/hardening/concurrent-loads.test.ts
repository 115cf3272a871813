import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { openStore } from "../../server/store/store.ts";
import { loadEmbedder, type Embedder } from "../../server/embedding/embedder.ts";
import { formatSummary } from "../../server/ingest/ingest.ts";
import { ingestKilledDuringRebuild, latestTableVersion, MODELS_DIR, ROOT, runCli, seededRandom, SHARED_DATA, spawnServer, tempDir, until } from "../support/helpers.ts";
import { createApiKey, loadDataDir } from "../support/stores.ts";

/**
 * The write lease with real processes on real postings (the first 750 of the shared 29,513, in
 * batches of 125, with the ANN index from 500 rows, so every load builds one as a large load does):
 * two CLI loads started together, SIGKILLs of the whole process tree at random moments, a server's
 * background index build racing a load, and a server started right after a load (the load built the
 * index, so nothing is built on start and every search is answered).
 */
const POSTINGS = 750;
/** Postings a load commits at a time: six table versions a whole load. */
const BATCH = 125;
const SEED = 20261124;
/** Every load and server of this file builds the ANN index from this many rows. */
const ENV = { VECTOR_INDEX_MIN_ROWS: "500" };

let embedder: Embedder;
/** The shared postings' lines, and a file of the first POSTINGS of them. */
let lines: string[];
let postings: string;
const dirs: string[] = [];
beforeAll(async () => {
  embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  lines = gunzipSync(await Bun.file(SHARED_DATA).bytes()).toString("utf8").split("\n").filter((line) => line.trim() !== "");
  postings = join(dataDir(), "postings.jsonl");
  await Bun.write(postings, lines.slice(0, POSTINGS).join("\n"));
});
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function dataDir(): string {
  const dir = tempDir("jobsearch-loads-");
  dirs.push(dir);
  return dir;
}

test("two loads of the same file started together: the second waits, the table holds each posting once; a server started right after answers each of 50 searches sent every 100 ms (over the in-memory copy's build)", async () => {
  const dir = dataDir();
  const [one, two] = await Promise.all([load(dir), load(dir)]);
  expect([one.code, two.code]).toEqual([0, 0]);
  const waited = [one, two].filter((run) => /waiting for the load started at .* by pid \d+/.test(run.stderr));
  expect(waited).toHaveLength(1);
  // The first writes everything and builds the index; the second, after waiting, finds nothing changed.
  const summaries = [one, two].map((run) => run.stdout.trim().split("\n").at(-1)!).sort();
  expect(summaries[0]).toMatch(/^ingested 0 new, 0 updated, \d+ skipped in /);
  expect(summaries[1]).toMatch(new RegExp(`^ingested ${POSTINGS} new, 0 updated, \\d+ skipped in .*; built the vector index in `));
  expect(await distinctRows(dir)).toEqual({ rows: POSTINGS, ids: POSTINGS, pending: false, vectorIndex: true });

  const key = await createApiKey(dir, "after-load");
  const server = await spawnServer(dir, { ...ENV, DEMO_DATA: "false" });
  const SEARCHES = 50;
  // The whole log is read (a pipe left unread would fill and stall the server) and shown on a failure.
  let log = server.log;
  const drained = (async () => {
    for await (const chunk of server.proc.stderr) log += new TextDecoder().decode(chunk);
  })();
  const statuses = new Map<number | string, number>();
  try {
    const queries = ["backend engineer", "registered nurse", "data scientist python", "ios developer in Berlin", "devops kubernetes"];
    // A count, not a duration: on a busy machine the searches come slower, never fewer.
    for (let i = 0; i < SEARCHES; i++) {
      const next = Date.now() + 100;
      const outcome = await fetch(`${server.ready.url}/v1/search`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ q: queries[i % queries.length], top_k: 10 }),
      }).then(
        async (response) => (response.ok ? (await response.arrayBuffer(), response.status) : `${response.status} ${await response.text()}`),
        (error: unknown) => `no answer: ${String(error)}`,
      );
      statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
      await Bun.sleep(Math.max(0, next - Date.now()));
    }
    const ready = await fetch(`${server.ready.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: { index: { vector: string } } }).checks.index.vector).toBe("ready");
  } finally {
    await server.stop();
    await drained;
  }
  const problems = [...statuses].filter(([outcome]) => outcome !== 200);
  if (problems.length > 0) console.error(`server log:\n${log.slice(-20_000)}`);
  expect(Object.fromEntries(statuses)).toEqual({ 200: SEARCHES });
  expect(log).not.toContain("building the ANN index");
}, 600_000);

test("three SIGKILLs of the whole load process tree at random moments, then a full run: each posting exactly once", async () => {
  // A whole load commits one table version per batch; each kill falls when a random share more
  // of them has been written (an event of the load itself, not a moment on a busy clock).
  const written = Math.ceil(POSTINGS / BATCH);
  const dir = dataDir();
  const random = seededRandom(SEED);
  const moments: number[] = [];
  for (const [from, to] of [[0.1, 0.35], [0.05, 0.2], [0.05, 0.15]] as const) {
    // `bun run cli` starts the CLI as a child: the whole process group is killed, not just the wrapper.
    const proc = Bun.spawn(["setsid", "bun", "run", "cli", "ingest", postings, "--batch-size", String(BATCH)], {
      cwd: ROOT,
      env: { ...process.env, ...ENV, DATA_DIR: dir, MODELS_DIR, NO_COLOR: "1" },
      stdout: "ignore",
      stderr: "ignore",
    });
    const target = latestTableVersion(dir) + Math.max(1, Math.round(written * (from + (to - from) * random())));
    const reached = await until(() => latestTableVersion(dir), (count) => count >= target || proc.exitCode !== null, 20);
    moments.push(reached);
    expect(proc.exitCode).toBeNull();
    process.kill(-proc.pid, "SIGKILL");
    await proc.exited;
    // The group's other processes are gone a moment after the leader: wait until none is left.
    await until(() => groupGone(proc.pid), (gone) => gone, 20);
  }
  // The full run is the function `cli ingest` runs, in this process: what is under test is what the kills left.
  const final = await loadDataDir(dir, parsed(lines.slice(0, POSTINGS)), LOAD);
  expect(await distinctRows(dir)).toEqual({ rows: POSTINGS, ids: POSTINGS, pending: false, vectorIndex: true });
  console.log(`killed at table versions ${moments.join(", ")} of ${written}; final run: ${formatSummary(final)}`);
}, 600_000);

test("a server's background index rebuild racing a load: no posting lost or duplicated", async () => {
  const dir = dataDir();
  const second = join(dir, "second.jsonl");
  const third = join(dir, "third.jsonl");
  // 500 postings each, the rows the index is built from: the first load builds it, the second makes a rebuild due.
  await Bun.write(second, lines.slice(500, 1000).join("\n"));
  await Bun.write(third, lines.slice(1000, 1500).join("\n"));
  // The first load only sets the table up: in this process, by the function `cli ingest` runs.
  expect((await loadDataDir(dir, parsed(lines.slice(0, 500)), LOAD)).index?.work).toBe("build");
  // A load killed during its own rebuild leaves its rows in a second index segment: the next server start rebuilds.
  expect(await ingestKilledDuringRebuild(second, { DATA_DIR: dir, ...ENV })).toContain("rebuilding the vector index over");

  const server = await spawnServer(dir, { ...ENV, DEMO_DATA: "false" });
  let log = server.log;
  const reader = server.proc.stderr.getReader();
  while (!log.includes("building the ANN index in a background process")) {
    const { value, done } = await reader.read();
    if (done) break;
    log += new TextDecoder().decode(value);
  }
  const loadStarted = Date.now();
  const racing = await load(dir, third);
  const loadEnded = Date.now();
  // The server's build process either rebuilt the index while the load waited for the lease, or found
  // the lease taken by the load (which then rebuilt the index itself), or got the lease once the load had
  // rebuilt it (at the lowest CPU priority, on a busy machine, it may start after the whole load).
  const outcome = /"msg":"(rebuilt the ANN index after loads|a load holds the write lease[^"]*|the ANN index is up to date[^"]*|could not build the ANN index[^"]*)"/;
  const deadline = setTimeout(() => server.proc.kill("SIGTERM"), 240_000);
  while (!outcome.test(log)) {
    const { value, done } = await reader.read();
    if (done) break;
    log += new TextDecoder().decode(value);
  }
  clearTimeout(deadline);
  reader.releaseLock();
  await server.stop();
  expect(racing.code).toBe(0);
  expect(log).toMatch(outcome);
  expect(log).not.toContain("could not build");
  // The server rebuilt (while the load waited for the lease, or before the load came to need it), or the
  // load went first and rebuilt the index itself; a load that waited did so for the server's build.
  const serverFirst = log.includes("rebuilt the ANN index after loads");
  const waited = racing.stderr.includes("waiting for the index build");
  if (waited) expect(serverFirst).toBe(true);
  if (!serverFirst) expect(racing.stdout).toContain("built the vector index");
  const how = waited ? "it waited for the server's build" : serverFirst ? "the server's build ended before it needed the lease" : "it went first and rebuilt the index itself";
  console.log(`the load ran ${loadEnded - loadStarted} ms beside the server's rebuild; ${how}`);
  expect(await distinctRows(dir)).toEqual({ rows: 1500, ids: 1500, pending: false, vectorIndex: true });
}, 600_000);

// --- helpers ---

/** A load in this process as `load` runs one: the same batches, the same index threshold. */
const LOAD = { batchSize: BATCH, vectorIndexMinRows: Number(ENV.VECTOR_INDEX_MIN_ROWS) };

const parsed = (some: string[]) => some.map((line) => JSON.parse(line) as object);

function load(dir: string, file = postings) {
  return runCli(["ingest", file, "--batch-size", String(BATCH)], { DATA_DIR: dir, ...ENV });
}

/** Rows and distinct ids of the table, whether a load is left unfinished, and whether the ANN index exists. */
async function distinctRows(dir: string) {
  const store = await openStore({ dataDir: dir, modelId: embedder.modelId, dimension: embedder.dimension });
  try {
    const ids = (await store.table.query().select(["id"]).toArray()).map((row) => String(row.id));
    return { rows: ids.length, ids: new Set(ids).size, pending: existsSync(join(dir, "load-pending")), vectorIndex: (await store.vectorIndexState()) !== undefined };
  } finally {
    store.close();
  }
}

/** Whether no live process of this process group is left (zombies, dead but not yet reaped, do not count). */
function groupGone(pgid: number): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid pgrp …": the fields after the command name.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return false;
  }
  return true;
}
