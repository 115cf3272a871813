import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clientSettings } from "../../../cli/client.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { ROOT, runCli, startTestServer, tempDir, type TestServer } from "../../support/helpers.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
});
afterAll(() => t.stop());

const secretOf = (key: string) => key.split("_").slice(2).join("_");

describe("cities", () => {
  test("--json is GET /v1/cities, and its counts are the fixture's", async () => {
    const { stdout, code } = await runCli(["cities", "--json", "--url", t.url, "--api-key", t.apiKey]);
    expect(code).toBe(0);
    const body = JSON.parse(stdout) as { request_id: string; total: number; cities: Array<{ city: string; country: string | null; postings: number }> };
    const expected = new Map<string, { country: string | null; postings: number }>();
    for (const posting of fixturePostings()) {
      if (!posting.city) continue;
      const entry = expected.get(posting.city) ?? { country: posting.country, postings: 0 };
      entry.postings++;
      expected.set(posting.city, entry);
    }
    expect(body.request_id).toBeString();
    expect(body.total).toBe(expected.size);
    expect(Object.fromEntries(body.cities.map((c) => [c.city, { country: c.country, postings: c.postings }]))).toEqual(Object.fromEntries(expected));
  });

  test("prints an aligned table with the counts", async () => {
    const { stdout, code } = await runCli(["cities"], { JOBSEARCH_URL: t.url, JOBSEARCH_API_KEY: t.apiKey });
    expect(code).toBe(0);
    const [header, ...rest] = stdout.trim().split("\n");
    expect(header).toMatch(/^city\s+country\s+postings$/);
    const rows = rest.slice(0, -1);
    expect(rows).toHaveLength(6);
    // postings is right-aligned: every row ends where the header does, CJK names included.
    for (const row of rows) expect(Bun.stringWidth(row)).toBe(Bun.stringWidth(header!));
    expect(stdout).toMatch(/^北京\s+CN\s+6$/m);
    expect(stdout).toMatch(/^O'Hare\s+US\s+6$/m);
    expect(rest.at(-1)).toBe("6 cities, 36 postings with a city");
  });

  test("needs a valid key like every endpoint", async () => {
    const { stderr, code } = await runCli(["cities", "--url", t.url, "--api-key", "nope"]);
    expect(code).toBe(1);
    expect(stderr).toContain("error [AUTH_INVALID_KEY]");
  });
});

describe("stats", () => {
  test("--json: postings is the number ingested, and each breakdown sums to it", async () => {
    const { stdout, code } = await runCli(["stats", "--json"], { DATA_DIR: t.dataDir });
    expect(code).toBe(0);
    const stats = JSON.parse(stdout);
    const fixture = fixturePostings();
    expect(stats.postings).toBe(fixture.length);
    const sum = (rows: Array<{ postings: number }>) => rows.reduce((total, row) => total + row.postings, 0);
    expect(sum(stats.by_source)).toBe(fixture.length);
    expect(sum(stats.by_country)).toBe(fixture.length);
    expect(sum(stats.by_month)).toBe(fixture.length);
    expect(stats.by_source).toEqual([
      { source: "indeed", postings: fixture.filter((p) => p.data_source === "indeed").length },
      { source: "linkedin", postings: fixture.filter((p) => p.data_source === "linkedin").length },
    ]);
    expect(stats.by_country).toContainEqual({ country: null, postings: fixture.filter((p) => p.country === null).length });
    expect(stats.by_month).toEqual([{ month: "2026-03", postings: fixture.length }]);
    expect(stats.model).toEqual({ id: t.server.embedder.modelId, dimension: t.server.embedder.dimension });
    expect(stats.table.version).toBeInteger();
    expect(stats.table.disk_bytes).toBeGreaterThan(10_000);
    const kinds = new Set(stats.indexes.map((index: { kind: string }) => index.kind));
    expect([...kinds].sort()).toEqual(["fts", "scalar"]);
    expect(stats.indexes.find((index: { name: string }) => index.name === "job_title_idx")).toMatchObject({
      kind: "fts", columns: ["job_title"], indexed_rows: fixture.length, unindexed_rows: 0,
    });
    expect(stats.vector_index_min_rows).toBeInteger();
  });

  test("prints sections for the model, table, indexes and the breakdowns", async () => {
    const { stdout, code } = await runCli(["stats"], { DATA_DIR: t.dataDir });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^postings\s+42$/m);
    expect(stdout).toContain(`model      ${t.server.embedder.modelId} (dimension ${t.server.embedder.dimension})`);
    expect(stdout).toMatch(/^table\s+version \d+, [\d.]+ KB on disk/m);
    expect(stdout).toMatch(/^ {2}vector ANN\s+none/m);
    expect(stdout).toMatch(/^ {2}full text\s+job_title_idx\s+FTS\s+job_title\s+42\s+0$/m);
    expect(stdout).toMatch(/^ {2}indeed\s+21\s+50\.0%$/m);
    expect(stdout).toMatch(/^ {2}2026-03\s+42\s+100\.0%$/m);
    expect(stdout).not.toContain("\x1b[");
  });

  test("an empty DATA_DIR has 0 postings and stays untouched", async () => {
    const dir = join(tempDir(), "not-yet");
    const { stdout, code } = await runCli(["stats", "--json"], { DATA_DIR: dir });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ postings: 0, by_source: [], table: null, model: null });
    expect(existsSync(dir)).toBe(false);
  });

  test("reads a table built with another model than EMBEDDING_MODEL names, without loading one", async () => {
    const { stdout, code } = await runCli(["stats", "--json"], { DATA_DIR: t.dataDir, EMBEDDING_MODEL: "Xenova/not-here" });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).model.id).toBe(t.server.embedder.modelId);
  });
});

describe("keys", () => {
  test("list is an aligned table with name, created, last used and rate limit, never the key", async () => {
    const env = { DATA_DIR: t.dataDir };
    const created = await runCli(["keys", "create", "--name", "partner 北京", "--rate-limit", "600"], env);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`stored in ${join(t.dataDir, "auth.sqlite")}`);
    const key = /jsk_\S+/.exec(created.stdout)![0];

    const listed = await runCli(["keys", "list"], env);
    expect(listed.code).toBe(0);
    const [header, ...rows] = listed.stdout.trim().split("\n");
    expect(header).toMatch(/^id\s+name\s+created\s+last used\s+rate limit\s+state$/);
    const row = rows.find((line) => line.includes("partner 北京"))!;
    expect(row).toMatch(/^[0-9a-f]{16}\s+partner 北京\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+never\s+600\/min\s+active$/);
    // Aligned: each column starts at the same display offset in every row.
    const start = (line: string, text: string) => Bun.stringWidth(line.slice(0, line.indexOf(text)));
    for (const line of rows) expect(start(line, "active") === start(header!, "state") || line.includes("revoked")).toBe(true);

    for (const output of [listed.stdout, (await runCli(["keys", "list", "--json"], env)).stdout]) {
      expect(output).not.toContain(key);
      expect(output).not.toContain(secretOf(key));
    }
  });
});

describe("connection settings", () => {
  const config = () => {
    const home = tempDir("jobsearch-xdg-");
    return { home, file: join(home, "jobsearch", "config.json"), env: { XDG_CONFIG_HOME: home, JOBSEARCH_URL: "", JOBSEARCH_API_KEY: "" } };
  };

  test("the API key can be piped to config set, never on the command line; without a key the CLI says how to set one", async () => {
    const { file, env } = config();
    const proc = Bun.spawn(["bun", join(ROOT, "cli/main.ts"), "config", "set", "api-key"], {
      cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...env }, stdin: new Blob([`${t.apiKey}\n`]), stdout: "pipe", stderr: "pipe",
    });
    expect(await proc.exited).toBe(0);
    expect(await new Response(proc.stdout).text()).not.toContain(secretOf(t.apiKey));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ api_key: t.apiKey });
    const none = await runCli(["search", "nurse", "--url", t.url], config().env);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no API key set");
    expect(none.stderr).toContain("config set api-key");
  });

  test("config set writes the file 0600; search then needs no flags; show masks the key", async () => {
    const { home, file, env } = config();
    expect((await runCli(["config", "set", "url", `${t.url}/`], env)).code).toBe(0);
    const set = await runCli(["config", "set", "api-key", t.apiKey], env);
    expect(set.code).toBe(0);
    expect(set.stdout).not.toContain(secretOf(t.apiKey));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ url: t.url, api_key: t.apiKey });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const search = await runCli(["search", "nurse", "--json"], env);
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout).total).toBeGreaterThan(0);

    const show = await runCli(["config", "show"], env);
    expect(show.stdout).toContain(`config file  ${file}`);
    expect(show.stdout).toContain(`url          ${t.url}  (config file)`);
    expect(show.stdout).toMatch(/api-key {6}jsk_[0-9a-f]{16}_…  \(config file\)/);
    expect(show.stdout).not.toContain(secretOf(t.apiKey));

    expect((await runCli(["config", "unset", "api-key"], env)).code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ url: t.url });
    rmSync(home, { recursive: true, force: true });
  });

  test("`bun run cli config set api-key KEY` never shows the key: no `$ bun cli/main.ts …` line (bunfig.toml), a masked confirmation", async () => {
    const { home, file, env } = config();
    const proc = Bun.spawn(["bun", "run", "cli", "config", "set", "api-key", t.apiKey], {
      cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...env }, stdout: "pipe", stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(`${stdout}${stderr}`).not.toContain(secretOf(t.apiKey));
    expect(stdout).toMatch(/^api-key = jsk_[0-9a-f]{16}_… \(saved in .*config\.json\)$/m);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ api_key: t.apiKey });
    rmSync(home, { recursive: true, force: true });
  });

  test("flags win over env, env over the file, the file over the default", async () => {
    const { home, file, env } = config();
    mkdirSync(join(home, "jobsearch"));
    writeFileSync(file, JSON.stringify({ url: t.url, api_key: t.apiKey }));
    const unreachable = "http://127.0.0.1:9";

    expect((await runCli(["cities", "--json"], env)).code).toBe(0);
    const envWins = await runCli(["cities"], { ...env, JOBSEARCH_URL: unreachable });
    expect(envWins.code).toBe(1);
    expect(envWins.stderr).toContain(`cannot reach ${unreachable}`);
    expect((await runCli(["cities", "--url", t.url], { ...env, JOBSEARCH_URL: unreachable })).code).toBe(0);

    const wrongKey = await runCli(["cities"], { ...env, JOBSEARCH_API_KEY: "jsk_wrong" });
    expect(wrongKey.stderr).toContain("error [AUTH_INVALID_KEY]");
    expect((await runCli(["cities", "--api-key", t.apiKey], { ...env, JOBSEARCH_API_KEY: "jsk_wrong" })).code).toBe(0);

    const show = JSON.parse((await runCli(["config", "show", "--json"], { ...env, JOBSEARCH_URL: unreachable })).stdout);
    expect(show).toMatchObject({ config_file: file, url: unreachable, url_from: "env", api_key_from: "file" });

    // In-process, the same order, and the default when nothing is set.
    const none = { XDG_CONFIG_HOME: tempDir("jobsearch-xdg-") };
    expect(clientSettings({}, none)).toEqual({ url: "http://localhost:3000" });
    expect(clientSettings({}, env)).toEqual({ url: t.url, apiKey: t.apiKey });
    expect(clientSettings({ url: "http://a:1" }, { ...env, JOBSEARCH_URL: "http://b:2" }).url).toBe("http://a:1");
    expect(clientSettings({}, { ...env, JOBSEARCH_URL: "http://b:2" }).url).toBe("http://b:2");
    rmSync(home, { recursive: true, force: true });
  });

  test("a broken config file or setting is a clear error", async () => {
    const { home, file, env } = config();
    mkdirSync(join(home, "jobsearch"));
    writeFileSync(file, "{ url: ");
    const broken = await runCli(["search", "nurse"], env);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`error [INVALID_PARAMETER]: the config file ${file} is not valid JSON`);
    writeFileSync(file, JSON.stringify({ url: 3 }));
    expect((await runCli(["config", "show"], env)).stderr).toContain(`the config file ${file}: url`);

    rmSync(file);
    const badUrl = await runCli(["config", "set", "url", "localhost"], env);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain("error [INVALID_PARAMETER]: url must");
    const badName = await runCli(["config", "set", "colour", "blue"], env);
    expect(badName.stderr).toContain('unknown setting "colour"');
    expect(existsSync(file)).toBe(false);
    rmSync(home, { recursive: true, force: true });
  });
});

describe("help", () => {
  test.each([
    [[]],
    [["search"]], [["cities"]], [["ingest"]], [["stats"]],
    [["keys"]], [["keys", "create"]], [["keys", "list"]], [["keys", "revoke"]],
    [["config"]], [["config", "show"]], [["config", "set"]], [["config", "unset"]],
    [["model"]], [["model", "build"]],
  ])("%p --help has usage and examples", async (path) => {
    const { stdout, code } = await runCli([...path, "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("USAGE");
    expect(stdout).toContain("Examples:\n  bun run cli");
  });

  test("--help has no ANSI escapes through a pipe, even with NO_COLOR unset", async () => {
    const piped = await runCli(["search", "--help"], { NO_COLOR: "", FORCE_COLOR: "" });
    expect(piped.stdout).toContain("USAGE");
    expect(piped.stdout).not.toContain("\x1b[");
    expect((await runCli(["search", "--help"], { NO_COLOR: "true", FORCE_COLOR: "" })).stdout).not.toContain("\x1b[");
  });

  test("a wrong command line exits 2", async () => {
    const { stderr, code } = await runCli(["search"]);
    expect(code).toBe(2);
    expect(stderr).toContain("error [USAGE]");
  });
});
