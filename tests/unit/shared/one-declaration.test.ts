import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { MODELS_DIR, ROOT, tempDir } from "../../support/helpers.ts";

/**
 * Adding a filter is one declaration: a copy of the code gains a throw-away `employer` filter in
 * shared/search-params.ts and nowhere else, and a real server and CLI run from that copy offer it
 * on REST GET and POST, MCP and the CLI, document it in OpenAPI and the MCP inputSchema, key the
 * result cache on it and apply its predicate.
 */
const DECLARATION = `
  employer: param({
    schema: z.string().optional().describe("Only postings of this company, exact."),
    read: readText,
    filter: { column: "company_name", op: "eq" },
  }),
`;
const EDITED = "shared/search-params.ts";

let copy: string;
let dataDir: string;
let server: { url: string; proc: Bun.Subprocess };
let key: string;

beforeAll(async () => {
  copy = tempDir("jobsearch-copy-");
  for (const entry of ["server", "cli", "shared", "data/demo", "package.json", "tsconfig.json", "bunfig.toml"]) {
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  const file = join(copy, EDITED);
  const source = readFileSync(file, "utf8");
  const anchor = "  top_k: param({";
  expect(source).toContain(anchor);
  writeFileSync(file, source.replace(anchor, `${DECLARATION.trimStart()}${anchor}`));

  dataDir = tempDir();
  const postings = join(dataDir, "postings.json");
  await Bun.write(postings, JSON.stringify(fixturePostings()));
  expect((await cli(["ingest", postings])).code).toBe(0);
  key = (JSON.parse((await cli(["keys", "create", "--name", "copy", "--json"])).stdout) as { key: string }).key;
  server = await serve();
}, 120_000);

afterAll(async () => {
  server?.proc.kill();
  await server?.proc.exited;
  rmSync(copy, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

test("only the declaration file differs between the copy and the code", () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
  const changed = ["server", "cli", "shared"].flatMap((folder) =>
    files(join(ROOT, folder))
      .filter((path) => readFileSync(path, "utf8") !== readFileSync(join(copy, relative(ROOT, path)), "utf8"))
      .map((path) => relative(ROOT, path)),
  );
  expect(changed).toEqual([EDITED]);
});

test("the new filter works on REST GET and POST, and applies its predicate", async () => {
  const got = (await (await fetch(`${server.url}/v1/search?q=engineer&employer=${encodeURIComponent("Company 1")}`, { headers: { "x-api-key": key } })).json()) as Page;
  expect(got.results.map((r) => r.company_name)).toEqual(["Company 1"]);
  const posted = await search({ q: "nurse", employer: "Company 3", top_k: 50 });
  expect(posted.results.map((r) => r.company_name)).toEqual(["Company 3"]);
  const bad = await fetch(`${server.url}/v1/search`, { method: "POST", headers: { "x-api-key": key }, body: JSON.stringify({ q: "nurse", employer: 7 }) });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ error: "employer must be a string", error_code: "INVALID_PARAMETER" });
});

test("the result cache keys on it: the same search with and without it gives different pages", async () => {
  const all = await search({ q: "registered nurse", top_k: 50 });
  const one = await search({ q: "registered nurse", top_k: 50, employer: "Company 3" });
  const again = await search({ q: "registered nurse", top_k: 50 });
  expect(all.total).toBeGreaterThan(1);
  expect(one.total).toBe(1);
  expect(again.total).toBe(all.total);
});

test("MCP's search_jobs offers and applies it (SDK client)", async () => {
  const client = new Client({ name: "one-declaration", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { "x-api-key": key } } }));
  try {
    const { tools } = await client.listTools();
    const properties = (tools.find((tool) => tool.name === "search_jobs")!.inputSchema as { properties: Record<string, { description?: string }> }).properties;
    expect(properties.employer?.description).toBe("Only postings of this company, exact.");
    const result = await client.callTool({ name: "search_jobs", arguments: { query: "accountant", employer: "Company 5", top_k: 50 } });
    const { results } = result.structuredContent as Page;
    expect(results.map((r) => r.company_name)).toEqual([]);
    const found = await client.callTool({ name: "search_jobs", arguments: { query: "accountant", employer: "Company 29", top_k: 50 } });
    expect((found.structuredContent as Page).results.map((r) => r.company_name)).toEqual(["Company 29"]);
  } finally {
    await client.close();
  }
});

test("the CLI has the flag, and OpenAPI documents the parameter for GET and POST", async () => {
  const help = await cli(["search", "--help"]);
  expect(help.stdout).toContain("--employer=<employer>");
  const out = await cli(["search", "data scientist", "--employer", "Company 4", "--top-k", "50", "--json", "--url", server.url, "--api-key", key]);
  expect(out.code).toBe(0);
  expect((JSON.parse(out.stdout) as Page).results.map((r) => r.company_name)).toEqual(["Company 4"]);

  const document = (await (await fetch(`${server.url}/openapi/json`)).json()) as {
    paths: Record<string, { get: { parameters: Array<{ name: string }> } }>;
    components: { schemas: { SearchParameters: { properties: Record<string, unknown> } } };
  };
  expect(document.paths["/v1/search"]!.get.parameters.map((p) => p.name)).toContain("employer");
  expect(Object.keys(document.components.schemas.SearchParameters.properties)).toContain("employer");
});

// --- helpers ---

interface Page { total: number; results: Array<{ company_name?: string }> }

async function search(body: object): Promise<Page> {
  const response = await fetch(`${server.url}/v1/search`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}

async function cli(args: string[]) {
  const proc = Bun.spawn(["bun", join(copy, "cli/main.ts"), ...args], {
    cwd: copy, env: { ...process.env, DATA_DIR: dataDir, MODELS_DIR, NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

async function serve(): Promise<{ url: string; proc: Bun.Subprocess }> {
  const proc = Bun.spawn(["bun", join(copy, "server/main.ts")], {
    cwd: copy,
    env: { ...process.env, DATA_DIR: dataDir, MODELS_DIR, PORT: "0", HOST: "127.0.0.1", DEMO_DATA: "false" },
    stdout: "ignore",
    stderr: "pipe",
  });
  const reader = proc.stderr.getReader();
  let log = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the copy's server did not start:\n${log}`);
    log += new TextDecoder().decode(value);
    const ready = log.split("\n").find((line) => line.includes('"msg":"ready"'));
    if (!ready) continue;
    // Its log keeps coming: read on, or the server would write into a closed pipe.
    void (async () => {
      while (!(await reader.read()).done);
    })();
    return { url: (JSON.parse(ready) as { url: string }).url, proc };
  }
}
