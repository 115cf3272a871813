import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anotherJobLike, fixturePostings } from "../../support/fixtures/postings.ts";
import { runCli, startTestServer, tempDir, type TestServer } from "../../support/helpers.ts";

/**
 * `cli saved add|list|new|rm` against a real server, and a separate `cli ingest` into its DATA_DIR:
 * the server sees the load (read consistency) and `saved new` lists its matching posting once.
 */

let t: TestServer;
let env: Record<string, string>;
const files = tempDir();
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
  env = { JOBSEARCH_URL: t.url, JOBSEARCH_API_KEY: t.apiKey, DATA_DIR: t.dataDir, DEMO_DATA: "false", READ_CONSISTENCY_MS: "0" };
});
afterAll(async () => {
  await t.stop();
  rmSync(files, { recursive: true, force: true });
});

describe("saved", () => {
  test("add, list, a separate ingest, new (once), rm", async () => {
    const added = await runCli(["saved", "add", "nurses", "registered nurse", "--city", "London", "--json"], env);
    expect(added.code).toBe(0);
    const created = JSON.parse(added.stdout) as { id: string; feed_url: string; params: Record<string, unknown> };
    expect(created.params).toEqual({ q: "registered nurse", city: "London" });
    const listed = await runCli(["saved", "list"], env);
    expect(listed.stdout).toContain("nurses");
    expect(listed.stdout).toContain(created.feed_url.slice(0, 30));

    const nurse = fixturePostings().find((p) => p.job_title === "Registered Nurse" && p.city === "London")!;
    const file = join(files, "new.json");
    writeFileSync(file, JSON.stringify([anotherJobLike(nurse, "cli-new")]));
    const ingest = await runCli(["ingest", file], env);
    expect(ingest.code).toBe(0);

    const fresh = await runCli(["saved", "new", "nurses", "--json"], env);
    expect(fresh.code).toBe(0);
    expect((JSON.parse(fresh.stdout) as { results: Array<{ id: string }> }).results.map((r) => r.id)).toEqual(["cli-new"]);
    const table = await runCli(["saved", "new", created.id], env);
    expect(table.stdout).toContain('0 new for "nurses"');

    expect((await runCli(["saved", "rm", "nurses"], env)).stdout).toContain(`deleted ${created.id}`);
    const gone = await runCli(["saved", "new", "nurses"], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("NOT_FOUND");
  });

  test("a search's mistakes come back as the server names them", async () => {
    const bad = await runCli(["saved", "add", "x", "nurse", "--country", "Germany"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("INVALID_PARAMETER");
    expect(bad.stderr).toContain("country");
  });
});
