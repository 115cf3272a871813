import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../server/log.ts";
import { fixturePostings } from "../support/fixtures/postings.ts";
import { runCli, startTestServer, until, type TestServer } from "../support/helpers.ts";

/** Small hostile inputs: NUL in a city, URLs made to abuse a terminal, clients that hang up, malformed MCP params. */
const logLines: string[] = [];
let t: TestServer;
const base = fixturePostings()[0]!;
beforeAll(async () => {
  t = await startTestServer({
    log: createLogger("info", (line) => logLines.push(line)),
    records: [
      { ...base, id: "nul-city", city: "Lyon\u0000", country: "FR", job_title: "Glassblower", job_description: "Blow glass in our Lyon workshop." },
      { ...base, id: "file-url", job_title: "Cartographer", job_description: "Draw maps.", job_url: "file:///etc/passwd" },
      { ...base, id: "escape-url", job_title: "Falconer", job_description: "Train falcons.", job_url: "https://jobs.example/falconer\u001b]8;;https://evil.example\u0007\u001b[2J" },
    ],
  });
});
afterAll(() => t.stop());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": t.apiKey, ...headers }, body: JSON.stringify(body) });

test("a city written with NUL is stored without it, so its filter finds it", async () => {
  const response = await post("/v1/search", { q: "glassblower", city: "Lyon" });
  const body = (await response.json()) as { results: Array<{ city: string; job_title: string }> };
  expect(body.results.map((r) => [r.city, r.job_title])).toEqual([["Lyon", "Glassblower"]]);
  const cities = (await (await fetch(`${t.url}/v1/cities`, { headers: { "x-api-key": t.apiKey } })).json()) as { cities: Array<{ city: string }> };
  expect(cities.cities.map((c) => c.city)).toContain("Lyon");
  expect(cities.cities.some((c) => c.city.includes("\u0000"))).toBe(false);
});

test("cli search --open prints only http(s) URLs, without control characters", async () => {
  const connection = ["--url", t.url, "--api-key", t.apiKey];
  const file = await runCli(["search", "cartographer", "--top-k", "1", "--open", "1", ...connection]);
  expect(file.code).toBe(1);
  expect(file.stdout).toBe("");
  expect(file.stderr).toContain("--open 1: the posting's URL is not an http(s) address, so it is not printed");
  const escaped = await runCli(["search", "falconer", "--top-k", "1", "--open", "1", ...connection]);
  expect(escaped.code).toBe(0);
  expect(escaped.stdout).toBe("https://jobs.example/falconer]8;;https://evil.example[2J\n");
  expect(/[\u0000-\u001f\u007f]/.test(escaped.stdout.trimEnd())).toBe(false);
});

test("a client that hangs up mid-body is logged and counted as 499 (its doing), not as a server error", async () => {
  await new Promise<void>((resolve, reject) => {
    Bun.connect({
      hostname: "127.0.0.1",
      port: t.server.port,
      socket: {
        open(socket) {
          socket.write(`POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: ${t.apiKey}\r\nContent-Length: 1000\r\n\r\n{"q":`);
          setTimeout(() => socket.terminate(), 100);
        },
        data() {},
        close: () => resolve(),
        connectError: (_, error) => reject(error),
      },
    });
  });
  const metrics = await until(async () => (await fetch(`${t.url}/metrics`)).text(), (text) => text.includes('status="499"'));
  expect(metrics).toMatch(/^http_requests_total\{method="POST",route="\/v1\/search",status="499"\} 1$/m);
  expect(metrics).not.toContain('status="500"');
  expect(logLines.some((line) => line.includes("unexpected error"))).toBe(false);
  expect(logLines.some((line) => line.includes('"status":499'))).toBe(true);
});

test("malformed MCP params answer -32602 with one clear sentence; the spec's isError results stay", async () => {
  const headers = { accept: "application/json, text/event-stream" };
  const call = async (params: unknown) => (await post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/call", params }, headers)).json();
  expect(await call({ name: "search_jobs", arguments: "nurse" })).toEqual({
    jsonrpc: "2.0", id: 1, error: { code: -32602, message: "MCP error -32602: Invalid params: params.arguments must be an object" },
  });
  expect(await call({ arguments: {} })).toEqual({
    jsonrpc: "2.0", id: 1, error: { code: -32602, message: "MCP error -32602: Invalid params: params.name must be a string" },
  });
  expect(await call({ name: "search_jobs", arguments: {} })).toMatchObject({ result: { isError: true, content: [{ type: "text", text: "query is required" }] } });
  expect(await call({ name: "nope", arguments: {} })).toMatchObject({ result: { isError: true, content: [{ type: "text", text: "MCP error -32602: Tool nope not found" }] } });
});
