import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { latestTableVersion, MODELS_DIR, postSearch, ROOT, runCli, seededRandom, startTestServer, tempDir, until } from "../../support/helpers.ts";
import { loadDataDir, sharedRecords } from "../../support/stores.ts";

/**
 * Removing postings: `cli delete` by id, source and date, `cli ingest --replace-source` (with its
 * refusal to remove over half of a source), a running server that stops returning what was removed,
 * and SIGKILLs at seeded random moments that must leave the table at the old or the new state.
 */
const SEED = 20261125;
/** Half of them at the commit, half at a seeded moment before it: two of each kind for each command. */
const KILLS = 4;

let work: string;
let base: string;
let records: Array<Record<string, any>>;
/** The file with a fifth of the postings of the larger source left out, and one changed. */
let trimmedFile: string;
let oldIds: string[];
let newIds: string[];

beforeAll(async () => {
  work = tempDir("jobsearch-lifecycle-");
  // Every 100th posting: 296, 279 of them from hackernews and 17 from ruanyf-weekly, 15 of the others before 2014.
  records = (await sharedRecords()).filter((_, i) => i % 100 === 0).map((r) => r.value as Record<string, any>);
  const kept = records.filter((r, i) => r.data_source !== "hackernews" || i % 5 !== 0);
  kept[1] = { ...kept[1], job_description: `${kept[1]!.job_description} (changed)` };
  trimmedFile = join(work, "trimmed.jsonl");
  await Bun.write(trimmedFile, kept.map((r) => JSON.stringify(r)).join("\n"));
  base = join(work, "base");
  await loadDataDir(base, records);
  oldIds = records.map((r) => String(r.id)).sort();
  newIds = kept.map((r) => String(r.id)).sort();
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function copy(name: string): string {
  const dir = join(work, name);
  cpSync(base, dir, { recursive: true });
  return dir;
}

async function idsOf(dir: string): Promise<string[]> {
  const db = await lancedb.connect(dir);
  const table = await db.openTable("jobs");
  const rows = await table.query().select(["id"]).toArray();
  db.close();
  return rows.map((row) => String(row.id)).sort();
}

test("delete by id, by source and by date, with a dry run, a summary line and clear errors", async () => {
  const dir = copy("delete");
  const env = { DATA_DIR: dir };
  const two = oldIds.slice(0, 2);
  const byId = await runCli(["delete", "--id", [two[0], "no-such-id", two[1]].join(",")], env);
  expect(byId.code).toBe(0);
  expect(byId.stdout).toMatch(/^deleted 2 postings \(by id\) in \d+\.\d s\nnot found \(1\): no-such-id\n$/);
  expect(await idsOf(dir)).toEqual(oldIds.slice(2));
  // Ids the table lacks are named, with --dry-run too; the known one is counted.
  const known = oldIds[2]!;
  const dryMixed = await runCli(["delete", "--id", `${known},no-such-id,${two[0]}`, "--dry-run"], env);
  expect(dryMixed.code).toBe(0);
  expect(dryMixed.stdout).toMatch(/^would delete 1 posting \(by id\) in \d+\.\d s\n/);
  expect(dryMixed.stdout).toContain(`not found (2): no-such-id, ${two[0]}\n`);
  expect(await idsOf(dir)).toEqual(oldIds.slice(2));

  const ruanyf = records.filter((r) => r.data_source === "ruanyf-weekly").length;
  const dry = await runCli(["delete", "--source", "ruanyf-weekly", "--dry-run"], env);
  expect(dry.stdout).toContain(`would delete ${ruanyf} postings (of source ruanyf-weekly)`);
  expect((await idsOf(dir)).length).toBe(oldIds.length - 2);
  expect((await runCli(["delete", "--source", "ruanyf-weekly"], env)).stdout).toContain(`deleted ${ruanyf} postings`);

  const before2014 = records.filter((r) => r.data_source !== "ruanyf-weekly" && !two.includes(r.id) && r.publish_time < "2014-01-01").length;
  expect((await runCli(["delete", "--before", "2014-01-01"], env)).stdout).toContain(`deleted ${before2014} posting`);
  expect((await idsOf(dir)).length).toBe(oldIds.length - 2 - ruanyf - before2014);

  const unknown = await runCli(["delete", "--source", "monster"], env);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain("--source must be one of: hackernews");
  const none = await runCli(["delete"], env);
  expect(none.code).toBe(1);
  expect(none.stderr).toContain("exactly one of --id, --source or --before");
  expect((await runCli(["delete", "--before", "soon"], env)).stderr).toContain("--before must be a date");
}, 60_000);

test("ingest --replace-source removes what the file lacks, refuses to remove over half a source without --force", async () => {
  const dir = copy("replace");
  const env = { DATA_DIR: dir };
  const replaced = await runCli(["ingest", trimmedFile, "--replace-source"], env);
  expect(replaced.code).toBe(0);
  const removed = oldIds.length - newIds.length;
  expect(replaced.stdout).toMatch(new RegExp(`ingested 0 new, 1 updated, \\d+ skipped, ${removed} removed \\(missing from the file\\)`));
  expect(await idsOf(dir)).toEqual(newIds);

  // A truncated file (a tenth of the postings) must not wipe the source.
  const truncated = join(work, "truncated.jsonl");
  await Bun.write(truncated, records.filter((r) => r.data_source === "hackernews").slice(0, 20).map((r) => JSON.stringify(r)).join("\n"));
  const refused = await runCli(["ingest", truncated, "--replace-source"], env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/would remove \d+ of the \d+ postings of source hackernews \(more than half\); nothing was changed/);
  expect(await idsOf(dir)).toEqual(newIds);
  const forced = await runCli(["ingest", truncated, "--replace-source", "--force"], env);
  expect(forced.code).toBe(0);
  const left = await idsOf(dir);
  expect(left.filter((id) => id.startsWith("hn-")).length).toBe(20);
}, 60_000);

test("a running server stops returning deleted postings", async () => {
  // The server runs in this process; the delete is another's, the CLI's.
  const server = await startTestServer({ dataDir: copy("server"), env: { READ_CONSISTENCY_MS: "200" } });
  try {
    const search = async () => {
      const { body } = await postSearch<{ results: unknown[]; error?: string }>(server, { q: "engineer", source: "ruanyf-weekly", top_k: 100, understand: false });
      return body;
    };
    expect((await search()).results.length).toBeGreaterThan(0);
    expect((await runCli(["delete", "--source", "ruanyf-weekly"], { DATA_DIR: server.dataDir })).code).toBe(0);
    const after = await until(search, (page) => page.error !== undefined, 100);
    // The source is gone from the data: naming it is now the 400 listing the sources left.
    expect(after.error ?? "").toContain("source must be one of: hackernews");
  } finally {
    await server.stop();
  }
}, 60_000);

test(`${KILLS} SIGKILLs each during a delete and a replace leave the table at the old or the new state`, async () => {
  const random = seededRandom(SEED);
  const outcomes = { delete: { old: 0, new: 0 }, replace: { old: 0, new: 0 } };
  const argsOf = (kind: "delete" | "replace") => (kind === "delete" ? ["delete", "--source", "ruanyf-weekly"] : ["ingest", trimmedFile, "--replace-source"]);
  const spawn = (kind: "delete" | "replace", dir: string) =>
    Bun.spawn(["setsid", "bun", join(ROOT, "cli/main.ts"), ...argsOf(kind)], {
      cwd: ROOT, env: { ...process.env, DATA_DIR: dir, MODELS_DIR }, stdout: "ignore", stderr: "ignore",
    });
  // Half the kills fall when the table's next version appears (the commit, an event of the command
  // itself), half at a seeded moment before it: within the time the last such run took from its start
  // to its commit, while the command works. Each leaves the old or the new state, and both are seen.
  const toCommit = { delete: 0, replace: 0 };
  for (let trial = 0; trial < KILLS; trial++) {
    for (const kind of ["delete", "replace"] as const) {
      const dir = copy(`kill-${kind}-${trial}`);
      const start = latestTableVersion(dir);
      const started = performance.now();
      const proc = spawn(kind, dir);
      if (trial % 2 === 1) await Bun.sleep(Math.floor(random() * toCommit[kind]));
      else {
        await until(() => latestTableVersion(dir), (version) => version > start || proc.exitCode !== null, 5);
        toCommit[kind] = performance.now() - started;
      }
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        // It finished first.
      }
      await proc.exited;
      const after = await idsOf(dir);
      const fresh = kind === "delete" ? oldIds.filter((id) => !records.find((r) => r.id === id && r.data_source === "ruanyf-weekly")) : newIds;
      expect([JSON.stringify(oldIds), JSON.stringify(fresh)]).toContain(JSON.stringify(after));
      outcomes[kind][JSON.stringify(after) === JSON.stringify(oldIds) ? "old" : "new"]++;
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`SIGKILLs left (old / new state): ${JSON.stringify(outcomes)}`);
  // The kills fell both before and after the commit: the test saw each state.
  for (const kind of ["delete", "replace"] as const) {
    expect(outcomes[kind].old).toBeGreaterThan(0);
    expect(outcomes[kind].new).toBeGreaterThan(0);
  }
}, 300_000);
