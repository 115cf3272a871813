import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { join } from "node:path";
import { createLogger } from "../../../server/log.ts";
import type { MatchResponse } from "../../../shared/match.ts";
import { anotherJobLike, fixturePostings } from "../../support/fixtures/postings.ts";
import { connectMcp, MODELS_DIR, ROOT, runCli, startTestServer, tempDir, type TestServer } from "../../support/helpers.ts";

/**
 * POST /v1/match, MCP match_profile and explain_match, and `cli match`, over a real server on the
 * fixture postings (six roles in seven places, tagged): a profile in, postings out with the skills
 * each shares and misses; the profile never reaches a log line, nor stays in memory.
 */

const MARKER = "Zyxwvut Quorblefax";
const PROFILE = [
  `# ${MARKER}`,
  "Location: Berlin",
  "Senior Backend Engineer with 9 years of Python and PostgreSQL; APIs and distributed systems.",
  "Previously: Data Scientist (machine learning, SQL).",
].join("\n");

let t: TestServer;
let mcp: Client;
const lines: string[] = [];
beforeAll(async () => {
  // One posting says its level in its title only: a junior's match ranks it first.
  const junior = { ...anotherJobLike(fixturePostings()[6]!, "fx-junior"), job_title: "Junior Backend Engineer", seniority_level: null };
  t = await startTestServer({ records: [...fixturePostings(), junior], log: createLogger("debug", (line) => void lines.push(line)) });
  mcp = await connectMcp(t.url, t.apiKey);
});
afterAll(async () => {
  await mcp.close();
  await t.stop();
});

async function match(body: Record<string, unknown>): Promise<{ status: number; body: MatchResponse & { error?: string; error_code?: string } }> {
  const response = await fetch(`${t.url}/v1/match`, {
    method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as never };
}

describe("POST /v1/match", () => {
  test("reads the profile, ranks the place where the person is first, and the job it names first with its matched and missing skills", async () => {
    const { status, body } = await match({ profile: PROFILE, top_k: 20 });
    expect(status).toBe(200);
    expect(body.profile).toMatchObject({ titles: expect.arrayContaining(["backend developer"]), seniority: "senior", years: 9, applied_filters: {}, nearby: { city: "Berlin" } });
    expect(body.profile.hints).toContain('city "Berlin" is where the profile says the person is: postings there rank first; it does not filter them');
    expect(body.profile.skills).toEqual(expect.arrayContaining(["python", "postgresql"]));
    // Where the person is ranks, it does not filter: the same job elsewhere follows.
    const backend = body.results.filter((r) => r.job_title === "Senior Backend Engineer");
    expect(backend.length).toBeGreaterThan(1);
    expect(backend[0]!.city).toBe("Berlin");
    const best = body.results[0]!;
    expect([best.job_title, best.city]).toEqual(["Senior Backend Engineer", "Berlin"]);
    expect(best.score).toBeGreaterThanOrEqual(0.5);
    // Skills as the profile writes them.
    expect(best.match.matched_skills).toEqual(expect.arrayContaining(["Python", "PostgreSQL"]));
    expect(best.match.reasons).toContain("title: backend developer");
    // Best first by default.
    expect(body.results.map((r) => r.score)).toEqual([...body.results.map((r) => r.score)].sort((a, b) => b - a));
    // A posting's missing skills are those it names that the profile does not.
    const frontend = (await match({ profile: PROFILE, city: "London", top_k: 42 })).body.results.find((r) => r.job_title === "Frontend Developer");
    expect(frontend?.match.missing_skills.map((skill) => skill.toLowerCase())).toEqual(expect.arrayContaining(["react", "typescript"]));
  });

  test("a preference of the profile ranks first, before where the person is, and filters nothing", async () => {
    const { body } = await match({ profile: `${PROFILE}\nIdeally London.`, top_k: 42 });
    expect(body.profile).toMatchObject({ applied_filters: {}, nearby: {}, preferred: { city: "London" } });
    expect(body.profile.hints).toContain('city "London" is what the profile prefers: postings that meet it rank first; it does not filter them');
    const backend = body.results.filter((r) => r.job_title === "Senior Backend Engineer");
    expect(backend[0]!.city).toBe("London");
    expect(backend[0]!.match.reasons).toContain("place: London");
    expect(new Set(backend.map((r) => r.city)).size).toBeGreaterThan(1);
  });

  test("a junior's match ranks postings of that level first", async () => {
    const { body } = await match({ profile: "Backend developer, Python and PostgreSQL, one year in.\nLooking for a junior backend role.", top_k: 5 });
    expect(body.profile.seniority).toBe("junior");
    expect(body.results[0]!.job_title).toBe("Junior Backend Engineer");
    expect(body.results.length).toBeGreaterThan(1);
  });

  test("an explicit filter wins over the place read, with a hint; q adds words", async () => {
    const { body } = await match({ profile: PROFILE, city: "London", q: "nurse", top_k: 3 });
    expect(body.profile.applied_filters).toEqual({});
    expect(body.profile.hints).toContain('city "Berlin" read from the profile was not applied: the request sets city');
    expect(body.results.every((r) => r.city === "London")).toBe(true);
    expect(body.profile.text).toStartWith("nurse ");
  });

  test("a missing or too long profile, and a bad filter, are refused as the spec's errors", async () => {
    expect(await match({ q: "engineer" })).toMatchObject({ status: 400, body: { error_code: "INVALID_PARAMETER", error: "profile is required: the text of a résumé or a short profile" } });
    expect(await match({ profile: "x".repeat(20_001) })).toMatchObject({ status: 413, body: { error_code: "PAYLOAD_TOO_LARGE", error: "profile must be at most 20000 characters" } });
    expect((await match({ profile: PROFILE, country: "germany" })).status).toBe(400);
  });

  test("nothing of the profile is logged", async () => {
    await match({ profile: PROFILE });
    await mcp.callTool({ name: "match_profile", arguments: { profile: PROFILE } });
    expect(lines.some((line) => line.includes('"route":"/v1/match"'))).toBe(true);
    expect(lines.filter((line) => line.includes(MARKER) || line.includes("Quorblefax"))).toEqual([]);
  });
});

test("nothing of a profile stays in the server's memory after its requests", async () => {
  // A word no posting, test or list holds, made here; the server runs in a process of its own
  // (tests/support/profile-heap.ts), whose heap holds nothing else of this run.
  const letters = (n: number) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (byte) => String.fromCharCode(97 + (byte % 26))).join("");
  const proc = Bun.spawn(["bun", join(ROOT, "tests/support/profile-heap.ts"), `Zq${letters(4)}`, `${letters(5)}ian`, `Qz${letters(4)}`], { cwd: ROOT, env: { ...process.env, MODELS_DIR }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err: code === 0 ? "" : err }).toEqual({ code: 0, err: "" });
  // The control: the same check finds a word the process keeps on purpose.
  expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual({ held: false, control: true });
}, 60_000);

test("each store has its own skills, though two stores of one process be at the same table version", async () => {
  // The same postings, three of them tagged with a skill the first server's data does not have.
  const records = [...fixturePostings(), { ...anotherJobLike(fixturePostings()[6]!, "fx-junior"), job_title: "Junior Backend Engineer", seniority_level: null }];
  for (const posting of records.filter((p) => p.job_title === "Senior Backend Engineer").slice(0, 3)) posting.job_tags = [...posting.job_tags, "Zigbee"];
  const other = await startTestServer({ records });
  try {
    expect(await other.server.store.version()).toBe(await t.server.store.version());
    const skills = async (server: TestServer) => (await (await fetch(`${server.url}/v1/match`, {
      method: "POST", headers: { "x-api-key": server.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ profile: "Senior Backend Engineer: Python, PostgreSQL and Zigbee", top_k: 1 }),
    })).json() as MatchResponse).profile.skills;
    expect(await skills(t)).not.toContain("zigbee");
    expect(await skills(other)).toContain("zigbee");
  } finally {
    await other.stop();
  }
});

test("a posting's skills are read from its whole description, whether a page shows it cut or not", async () => {
  const base = fixturePostings().find((p) => p.job_title === "Senior Backend Engineer")!;
  const long = { ...anotherJobLike(base, "long-text"), job_tags: ["python"] };
  // The one skill past the cut (DESCRIPTION_MAX_CHARS) that a page in full detail shows.
  long.job_description = `${"Our backend team builds payment services in Python. ".repeat(700)}You will run our Kubernetes clusters.`;
  const own = await startTestServer({ records: [long, ...fixturePostings().slice(0, 3)] });
  try {
    const ask = async (detail: object) => {
      const response = await fetch(`${own.url}/v1/match`, {
        method: "POST", headers: { "x-api-key": own.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ profile: "Senior Backend Engineer: Python, Kubernetes", top_k: 5, ...detail }),
      });
      return ((await response.json()) as MatchResponse).results.find((r) => r.id === "long-text")!;
    };
    // In full detail first: what the page cuts must not become what every later match reads.
    const full = await ask({ detail: "full" });
    expect(full.job_description_truncated).toBe(true);
    expect(full.match.matched_skills).toEqual(expect.arrayContaining(["Python", "Kubernetes"]));
    expect((await ask({})).match).toEqual(full.match);
  } finally {
    await own.stop();
  }
});

describe("MCP", () => {
  test("match_profile returns what REST does, in its output schema", async () => {
    const result = await mcp.callTool({ name: "match_profile", arguments: { profile: PROFILE, top_k: 5 } });
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as Omit<MatchResponse, "request_id" | "search_time_ms">;
    const rest = (await match({ profile: PROFILE, top_k: 5 })).body;
    expect(content.results.map((r) => [r.id, r.score, r.match])).toEqual(rest.results.map((r) => [r.id, r.score, r.match]));
    expect(content.profile).toEqual(rest.profile);
  });

  test("explain_match: the match of one posting and a sentence; an unknown id is an error result", async () => {
    const { results } = (await match({ profile: PROFILE, top_k: 1 })).body;
    const result = await mcp.callTool({ name: "explain_match", arguments: { id: results[0]!.id, profile: PROFILE } });
    const explained = result.structuredContent as { match: MatchResponse["results"][number]["match"]; text: string };
    expect(explained.match).toEqual(results[0]!.match);
    expect(explained.text).toContain("Python");
    const unknown = await mcp.callTool({ name: "explain_match", arguments: { id: "no-such-id", profile: PROFILE } });
    expect(unknown.isError).toBe(true);
  });
});

test("cli match FILE prints the matches with their matched and missing skills", async () => {
  const file = join(tempDir(), "cv.md");
  await Bun.write(file, PROFILE);
  const { stdout, code } = await runCli(["match", file, "--top-k", "3"], { JOBSEARCH_URL: t.url, JOBSEARCH_API_KEY: t.apiKey });
  expect(code).toBe(0);
  expect(stdout).toContain("Senior Backend Engineer");
  expect(stdout).toContain("matched skills");
  expect(stdout).toMatch(/python, postgresql|postgresql, python/i);
});
