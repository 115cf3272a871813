import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { ingestRecords } from "../../server/ingest/ingest.ts";
import { startServer, type RunningServer } from "../../server/start.ts";
import { createLogger } from "../../server/log.ts";
import { runCli, startTestServer, tempDir, testConfig, type TestServer } from "../support/helpers.ts";
import { sharedRecords } from "../support/stores.ts";

/**
 * A server answers 16 concurrent searchers while the CLI loads 300 real postings into its DATA_DIR
 * in 15 commits of 20 (the first 100 replace earlier versions with other titles) and a backup is taken meanwhile.
 * Every answer must be a 200 whose every result is one version of an input posting, whole; the
 * backup must restore into a table equal to the source at the backed-up version, with working keys.
 */
const SEARCHERS = 16;
const POSTINGS = 300;
const EARLIER = 100;
/** Postings a commit: POSTINGS / BATCH = 15 commits, as many versions for the searchers and the backup to meet. */
const BATCH = 20;
const QUERIES = ["software engineer", "python developer", "data scientist machine learning", "frontend react", "devops aws",
  "product manager", "remote backend go", "ios developer", "sales", "nurse", "senior java engineer", "startup full stack"];

type Posting = Record<string, unknown>;
let t: TestServer;
let work: string;
let newFile: string;
/** job_url → the result fields each version of that posting shows (JSON strings). */
const versions = new Map<string, Set<string>>();

beforeAll(async () => {
  work = tempDir("jobsearch-safety-");
  const records = (await sharedRecords()).slice(0, POSTINGS).map((r) => r.value as Posting);
  const earlier: Posting[] = records.slice(0, EARLIER).map((r) => ({ ...r, job_title: `${r.job_title ?? "Job"} (earlier version)` }));
  for (const posting of [...earlier, ...records]) {
    const url = String(posting.job_url);
    versions.set(url, (versions.get(url) ?? new Set()).add(JSON.stringify(resultFields(posting))));
  }
  newFile = join(work, "new.jsonl");
  await Bun.write(newFile, records.map((r) => JSON.stringify(r)).join("\n"));
  // What is checked is what each answer holds, not how fast it comes on a busy machine: no search times out.
  t = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: "1000000", MAX_IN_FLIGHT_PER_KEY: "64", SEARCH_TIMEOUT_MS: "200000", IDLE_TIMEOUT_S: "255" } });
  await ingestRecords(t.server, earlier.map((value, i) => ({ ref: `line ${i + 1}`, value })));
}, 120_000);

afterAll(async () => {
  await t?.stop();
  rmSync(work, { recursive: true, force: true });
});

test("16 searchers during a CLI load and a backup: no error, no half-written posting; the backup restores", async () => {
  const env = { DATA_DIR: t.dataDir };
  const load = runCli(["ingest", newFile, "--batch-size", String(BATCH)], env);
  let loading = true;
  const tally = { requests: 0, failures: [] as string[], results: 0 };
  const searchers = Array.from({ length: SEARCHERS }, async (_, n) => {
    for (let i = n; loading; i++) await searchOnce(QUERIES[i % QUERIES.length]!, 10 + (i % 4) * 10, tally);
  });
  // The backup starts once the load has committed a few batches (it shows up in the server's version).
  const start = await t.server.store.version();
  while ((await t.server.store.version()) < start + 5) await Bun.sleep(50);
  const backupDir = join(work, "backup-during-load");
  const backup = await runCli(["backup", backupDir, "--json"], env);
  // The source at the backed-up version, read now: the load's optimize() drops versions a minute old.
  const backedUp = backup.code === 0 ? await rowsOf(t.dataDir, (JSON.parse(backup.stdout) as { table: { version: number } }).table.version) : [];
  const loaded = await load;
  loading = false;
  await Promise.all(searchers);

  console.log(`concurrent: ${tally.requests} searches, ${tally.results} results checked, ${tally.failures.length} failures; backup: ${backup.stdout.length > 0 ? JSON.parse(backup.stdout).table.postings : "?"} postings`);
  expect(loaded.code).toBe(0);
  expect(loaded.stdout).toContain(`ingested ${POSTINGS - EARLIER} new, ${EARLIER} updated`);
  expect(tally.failures.slice(0, 5)).toEqual([]);
  expect(tally.requests).toBeGreaterThan(SEARCHERS * 3);
  expect(tally.results).toBeGreaterThan(0);

  // The backup taken mid-load equals the source table at the version it names.
  expect(backup.code).toBe(0);
  const manifest = JSON.parse(backup.stdout) as { table: { version: number; postings: number }; api_keys: number };
  expect(manifest.table.postings).toBeGreaterThanOrEqual(EARLIER);
  expect(manifest.api_keys).toBe(2); // the server's first key and the test's
  const restoredDir = join(work, "restored-during-load");
  const restored = await runCli(["restore", backupDir], { DATA_DIR: restoredDir });
  expect(restored.code).toBe(0);
  expect(restored.stdout).toContain(`restored ${manifest.table.postings} postings (table version ${manifest.table.version}`);
  expect(await rowsOf(restoredDir)).toEqual(backedUp);
  const server = await startServer(testConfig(restoredDir), createLogger("error", () => {}));
  try {
    const response = await search(server.url, t.apiKey, "software engineer");
    expect(response.status).toBe(200);
  } finally {
    await server.stop();
  }
}, 300_000);

test("a backup restored into a fresh DATA_DIR answers the same searches, with the same keys", async () => {
  const backupDir = join(work, "backup-quiet");
  expect((await runCli(["backup", backupDir], { DATA_DIR: t.dataDir })).code).toBe(0);
  expect((await runCli(["backup", backupDir], { DATA_DIR: t.dataDir })).stderr).toContain("is not empty");
  const restoredDir = join(work, "restored-quiet");
  expect((await runCli(["restore", backupDir], { DATA_DIR: restoredDir })).code).toBe(0);
  // Restoring over a DATA_DIR with contents needs --force.
  const again = await runCli(["restore", backupDir], { DATA_DIR: restoredDir });
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("--force");
  expect((await runCli(["restore", backupDir, "--force"], { DATA_DIR: restoredDir })).code).toBe(0);
  expect(readFileSync(join(restoredDir, "oauth-signing-key.json"), "utf8")).toBe(readFileSync(join(t.dataDir, "oauth-signing-key.json"), "utf8"));

  const server: RunningServer = await startServer(testConfig(restoredDir), createLogger("error", () => {}));
  // Both answer from memory of the same version with the same term statistics, so their pages are
  // bit-identical by design (LanceDB's own BM25 scores differ in the fourth decimal): the original moves
  // to the load of the test before now, rather than at its next look, and its copy may still be
  // rebuilding. warm() ends when a build ends, held or not (a build that failed on a busy machine):
  // wait on builds until both hold the version, and check after the searches that they still did.
  const version = await bothInMemory(t.server, server);
  try {
    // A page size no searcher of the first test asked for: the original's result cache may hold pages of
    // this version that LanceDB ranked while its copy was being built.
    for (const q of QUERIES) {
      const [original, copy] = await Promise.all([search(t.url, t.apiKey, q, 15), search(server.url, t.apiKey, q, 15)]);
      expect(copy.status).toBe(200);
      expect(copy.body.results).toEqual(original.body.results);
    }
    expect([heldVersion(t.server), heldVersion(server)]).toEqual([version, version]);
    expect((await search(server.url, "jsk_0000000000000000_not-a-key-not-a-key-not-a-key-not-a-key-xx", "x")).status).toBe(403);
  } finally {
    await server.stop();
  }
}, 120_000);

// --- helpers ---

/** The table version a server's in-memory copy holds, if any. */
function heldVersion(server: Pick<RunningServer, "store">): number | undefined {
  const state = server.store.memoryCopy();
  return state !== undefined && "version" in state ? state.version : undefined;
}

/** Waits (on builds, not time) until both servers read the same version and hold it in memory; returns it. */
async function bothInMemory(...servers: Array<Pick<RunningServer, "store">>): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await Promise.all(servers.map((s) => s.store.refresh()));
    await Promise.all(servers.map((s) => s.store.warm()));
    const versions = await Promise.all(servers.map((s) => s.store.version()));
    if (versions.every((v) => v === versions[0]) && servers.every((s) => heldVersion(s) === versions[0])) return versions[0]!;
  }
  throw new Error(`the servers do not both hold one version in memory: ${JSON.stringify(servers.map((s) => s.store.memoryCopy()))}`);
}

async function search(url: string, key: string, q: string, topK = 20) {
  const response = await fetch(`${url}/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ q, top_k: topK }),
  });
  return { status: response.status, body: (await response.json()) as { results: Array<Record<string, unknown>> } };
}

async function searchOnce(q: string, topK: number, tally: { requests: number; failures: string[]; results: number }) {
  tally.requests++;
  try {
    const { status, body } = await search(t.url, t.apiKey, q, topK);
    if (status !== 200) return void tally.failures.push(`${q}: HTTP ${status} ${JSON.stringify(body)}`);
    // The same job's fields are the cluster's, computed per table version: the posting's own fields are compared.
    for (const { score, cluster_id: _cluster, first_seen: _first, last_seen: _last, times_posted: _times, ...fields } of body.results) {
      tally.results++;
      const known = versions.get(String(fields.job_url));
      if (!known?.has(JSON.stringify(fields))) tally.failures.push(`${q}: not an input posting: ${JSON.stringify(fields)}`);
      if (typeof score !== "number" || score < 0 || score > 1) tally.failures.push(`${q}: score ${score}`);
    }
  } catch (error) {
    tally.failures.push(`${q}: ${String(error)}`);
  }
}

/** The result fields a summary search shows for a posting (job-search-service.md §2.1 order, unknown ones absent). */
function resultFields(p: Posting): Record<string, unknown> {
  const present = (key: string) => (p[key] === null || p[key] === undefined || p[key] === "" ? {} : { [key]: p[key] });
  return {
    id: p.id, ...present("job_title"), ...present("city"), ...present("company_name"), publish_time: p.publish_time,
    ...present("base_salary"), job_url: p.job_url, job_tags: p.job_tags ?? [], data_source: p.data_source,
    ...present("seniority_level"), ...present("employment_type"),
  };
}

/** (id, content_hash) of every row, sorted, at `version` (default: latest). */
async function rowsOf(dataDir: string, version?: number): Promise<string[]> {
  const db = await lancedb.connect(dataDir);
  const table = await db.openTable("jobs");
  if (version !== undefined) await table.checkout(version);
  const rows = await table.query().select(["id", "content_hash"]).toArray();
  table.close();
  db.close();
  return rows.map((row) => `${row.id} ${row.content_hash}`).sort();
}
