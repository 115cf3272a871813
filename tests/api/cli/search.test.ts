import { afterAll, beforeAll, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { postSearch, runCli, startTestServer, type TestServer } from "../../support/helpers.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
});
afterAll(() => t.stop());

const connection = () => ["--url", t.url, "--api-key", t.apiKey];
/** Where each header's column starts, in display cells. */
const columnStarts = (header: string, names: string[]) => names.map((name) => Bun.stringWidth(header.slice(0, header.search(new RegExp(`(?<=^|  )${name}\\b`)))));

test("prints an aligned table: #, title, company, city, date, salary, score", async () => {
  const { stdout, code } = await runCli(["search", "registered nurse", "--city", "Berlin", "--top-k", "3", ...connection()]);
  expect(code).toBe(0);
  const lines = stdout.trim().split("\n");
  expect(lines[0]).toMatch(/^#\s+title\s+company\s+city\s+date\s+salary\s+score$/);
  expect(lines).toHaveLength(5);
  expect(lines.at(-1)).toMatch(/^3 results, best first \(--sort date: newest first\) in \d+ ms$/);
  expect(stdout).toContain("Registered Nurse");
  expect(stdout).toContain("90,000–120,000 USD/year");
});

test("rows stay aligned with CJK, accented and missing cells", async () => {
  // Every place has a Registered Nurse, so the top 8 include 北京 (two cells per character) and Zürich.
  const { stdout, code } = await runCli(["search", "registered nurse", "--top-k", "8", ...connection()], { COLUMNS: "200" });
  expect(code).toBe(0);
  expect(stdout).toContain("北京");
  expect(stdout).toContain("Zürich");
  const [header, ...rows] = stdout.trim().split("\n").slice(0, -1);
  const starts = columnStarts(header!, ["title", "company", "city", "date", "salary"]);
  expect(rows).toHaveLength(8);
  for (const row of rows) {
    const date = /\d{4}-\d{2}-\d{2}/.exec(row)!;
    expect(Bun.stringWidth(row.slice(0, date.index))).toBe(starts[3]!);
    // Every cell starts where its header does: two spaces before each start, something after.
    for (const start of starts) {
      const before = cut(row, start);
      expect(before.endsWith("  ")).toBe(true);
      expect(row.slice(before.length, before.length + 1)).not.toBe(" ");
    }
  }
});

test("long cells are cut to the terminal width (COLUMNS through a pipe, 100 by default)", async () => {
  for (const [env, width] of [[{ COLUMNS: "70" }, 70], [{ COLUMNS: "" }, 100]] as const) {
    const { stdout, code } = await runCli(["search", "engineer", "--top-k", "10", ...connection()], env);
    expect(code).toBe(0);
    for (const line of stdout.trim().split("\n")) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(width);
  }
  const narrow = await runCli(["search", "senior backend engineer", "--top-k", "3", ...connection()], { COLUMNS: "60" });
  expect(narrow.stdout).toContain("…");
});

test("no ANSI escapes with NO_COLOR or through a pipe; FORCE_COLOR turns them on, NO_COLOR still wins", async () => {
  const run = (env: Record<string, string>) => runCli(["search", "nurse", "--top-k", "3", ...connection()], env);
  expect((await run({ NO_COLOR: "1", FORCE_COLOR: "" })).stdout).not.toContain("\x1b[");
  expect((await run({ NO_COLOR: "", FORCE_COLOR: "" })).stdout).not.toContain("\x1b[");
  expect((await run({ NO_COLOR: "1", FORCE_COLOR: "1" })).stdout).not.toContain("\x1b[");
  const colored = await run({ NO_COLOR: "", FORCE_COLOR: "1" });
  expect(colored.stdout).toContain("\x1b[1m");
  // Colors change no widths: without them it is the same table.
  const plain = await run({ NO_COLOR: "1" });
  expect(Bun.stripANSI(colored.stdout).replace(/\d+ ms/, "")).toBe(plain.stdout.replace(/\d+ ms/, ""));
});

test("--json prints the response and reads JOBSEARCH_URL / JOBSEARCH_API_KEY", async () => {
  const { stdout, code } = await runCli(["search", "accountant", "--json", "--source", "linkedin", "--top-k", "100"], {
    JOBSEARCH_URL: t.url,
    JOBSEARCH_API_KEY: t.apiKey,
  });
  expect(code).toBe(0);
  const body = JSON.parse(stdout);
  expect(body.total).toBe(21);
  expect(body.results.every((r: { data_source: string }) => r.data_source === "linkedin")).toBe(true);
});

test("--open N prints exactly the N-th result's URL", async () => {
  const args = ["search", "data scientist", "--country", "US", ...connection()];
  const { results } = JSON.parse((await runCli([...args, "--json"])).stdout) as { results: Array<{ job_url: string }> };
  expect(results.length).toBeGreaterThanOrEqual(2);
  const second = await runCli([...args, "--open", "2"]);
  expect(second.code).toBe(0);
  expect(second.stdout).toBe(`${results[1]!.job_url}\n`);
  expect((await runCli([...args, "--open", "1"])).stdout).toBe(`${results[0]!.job_url}\n`);

  const beyond = await runCli([...args, "--open", String(results.length + 1)]);
  expect(beyond.code).toBe(1);
  expect(beyond.stdout).toBe("");
  expect(beyond.stderr).toContain(`error [NOT_FOUND]: --open ${results.length + 1}: the search returned ${results.length} results`);
  const bad = await runCli([...args, "--open", "0"]);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("error [INVALID_PARAMETER]: --open must be a result number");
});

test("--open N counts in the same search: beyond its results it says so", async () => {
  const { stderr, code } = await runCli(["search", "engineer", "--open", "25", ...connection()]);
  expect(code).toBe(1);
  expect(stderr).toContain("error [NOT_FOUND]: --open 25: the search returned 20 results (ask for more with --top-k)");
  const all = JSON.parse((await runCli(["search", "engineer", "--top-k", "30", "--json", ...connection()])).stdout) as { results: Array<{ job_url: string }> };
  const more = await runCli(["search", "engineer", "--top-k", "30", "--open", "25", ...connection()]);
  expect(more.stdout).toBe(`${all.results[24]!.job_url}\n`);
});

test("--sort relevance, --min-score and --no-collapse reach the service", async () => {
  const run = async (...extra: string[]) => {
    const { stdout, code } = await runCli(["search", "engineer", "--top-k", "30", "--json", ...extra, ...connection()]);
    expect(code).toBe(0);
    return (JSON.parse(stdout) as { results: Array<{ score: number }> }).results.map((r) => r.score);
  };
  const byRelevance = await run("--sort", "relevance");
  expect(byRelevance).toEqual([...byRelevance].sort((a, b) => b - a));
  const strong = await run("--min-score", "0.5");
  expect(strong.length).toBeGreaterThan(0);
  expect(strong.every((score) => score >= 0.5)).toBe(true);
  expect(strong.length).toBeLessThan(byRelevance.length);
  expect((await run("--no-collapse")).length).toBeGreaterThanOrEqual(byRelevance.length);
});

test("best first by default, saying so; --sort date gives the API's own order, newest first", async () => {
  type Row = { score: number; publish_time: string; job_url: string };
  const rows = async (...extra: string[]) => {
    const { stdout, code } = await runCli(["search", "engineer", "--top-k", "30", "--json", ...extra, ...connection()]);
    expect(code).toBe(0);
    return (JSON.parse(stdout) as { results: Row[] }).results;
  };
  const best = await rows();
  const scores = best.map((r) => r.score);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  const byDate = await rows("--sort", "date");
  const times = byDate.map((r) => r.publish_time);
  expect(times).toEqual([...times].sort().reverse());
  expect(byDate.map((r) => r.job_url)).not.toEqual(best.map((r) => r.job_url));
  // The API keeps the spec's default order: newest first.
  const api = await postSearch<{ results: Row[] }>(t, { q: "engineer", top_k: 30 });
  expect(api.body.results.map((r) => r.job_url)).toEqual(byDate.map((r) => r.job_url));
  const table = (await runCli(["search", "engineer", "--sort", "date", ...connection()])).stdout.trim().split("\n");
  expect(table.at(-1)).toMatch(/^20 results, newest first \(--sort relevance: best first\) in \d+ ms$/);
});

test("with --facets the count line's numbers agree with the rows and with total_matches", async () => {
  for (const query of ["registered nurse", "airline pilot", "backend engineer"]) {
    const args = ["search", query, "--facets", "city", ...connection()];
    const body = JSON.parse((await runCli([...args, "--json"])).stdout) as { total: number; total_matches: number; results: Array<{ score: number }> };
    const close = body.results.filter((r) => r.score >= 0.5).length;
    // Best first, the close matches lead the page: all of them, or as many as the page holds.
    expect(close).toBe(Math.min(body.total_matches, body.total));
    const last = (await runCli(args)).stdout.trim().split("\n").at(-1);
    expect(last).toMatch(new RegExp(`^${body.total} results?(, best first \\(--sort date: newest first\\))? in \\d+ ms; close matches \\(score ≥ 0.5\\): ${body.total_matches} in all, ${close} shown$`));
  }
  const strict = (await runCli(["search", "registered nurse", "--facets", "city", "--min-score", "0.7", ...connection()])).stdout.trim().split("\n").at(-1);
  expect(strict).toMatch(/close matches \(score ≥ 0.7\): \d+ in all, \d+ shown$/);
});

test("--city and --country given again search any of their values; once, exactly that one", async () => {
  const cities = async (...extra: string[]) => {
    const { stdout, code } = await runCli(["search", "engineer", "--top-k", "100", "--json", ...extra, ...connection()]);
    expect(code).toBe(0);
    return new Set((JSON.parse(stdout) as { results: Array<{ city: string }> }).results.map((job) => job.city));
  };
  expect(await cities("--city", "Berlin", "--city=London")).toEqual(new Set(["Berlin", "London"]));
  expect(await cities("--country", "DE", "--country", "CH")).toEqual(new Set(["Berlin", "Zürich"]));
  expect(await cities("--city", "Berlin")).toEqual(new Set(["Berlin"]));
});

test.each([
  [["--api-key", "wrong"], "error [AUTH_INVALID_KEY]: Invalid API key"],
  [["--country", "germany"], "error [INVALID_PARAMETER]: country must be two uppercase letters"],
  [["--country", "DE", "--country", "de"], "error [INVALID_PARAMETER]: country must be two uppercase letters"],
  [["--top-k", "many"], "error [INVALID_PARAMETER]: top_k must be an integer"],
])("prints error [CODE]: message and exits 1 for %p", async (extra, message) => {
  const { stderr, code } = await runCli(["search", "nurse", "--url", t.url, ...extra], { JOBSEARCH_API_KEY: t.apiKey });
  expect(code).toBe(1);
  expect(stderr).toContain(message);
});

test("an unreachable service is a clear error", async () => {
  const { stderr, code } = await runCli(["search", "nurse", "--url", "http://127.0.0.1:9", "--api-key", "x"]);
  expect(code).toBe(1);
  expect(stderr).toContain("error [SERVICE_UNAVAILABLE]: cannot reach http://127.0.0.1:9");
});

/** The prefix of `text` that is `width` display cells wide. */
function cut(text: string, width: number): string {
  let out = "";
  for (const char of text) {
    if (Bun.stringWidth(out + char) > width) break;
    out += char;
  }
  return out;
}
