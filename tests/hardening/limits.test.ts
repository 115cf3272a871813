import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../server/config.ts";
import { DESCRIPTION_MAX_CHARS, QUERY_MAX_LENGTH } from "../../shared/search.ts";
import { fixturePostings } from "../support/fixtures/postings.ts";
import { startTestServer, until, type TestServer } from "../support/helpers.ts";

const LIMIT = 64 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MCP_ACCEPT = "application/json, text/event-stream";

/** Two postings with descriptions past the cap; the first puts an emoji across the cut. */
const LONG = [
  { ...fixturePostings()[0]!, id: "long-1", job_url: "https://jobs.example.com/long-1", city: "Longtown", company_name: "Long One",
    job_description: `Backend engineer. ${"a".repeat(DESCRIPTION_MAX_CHARS - 19)}😀${"b".repeat(10_000)}` },
  { ...fixturePostings()[1]!, id: "long-2", job_url: "https://jobs.example.com/long-2", city: "Longtown", company_name: "Long Two",
    job_description: `Frontend developer. ${"é".repeat(60_000)}` },
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ records: [...fixturePostings(), ...LONG] });
});
afterAll(() => t.stop());

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${t.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: MCP_ACCEPT, "x-api-key": t.apiKey, ...headers },
    body,
  });
}

async function expectRestError(response: Response, status: number, code: string, message?: RegExp) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_code", "request_id"]);
  expect(body.error_code).toBe(code);
  expect(body.request_id).toMatch(UUID);
  expect(response.headers.get("x-request-id")).toBe(body.request_id as string);
  if (message) expect(body.error).toMatch(message);
}

/** A JSON body of exactly `bytes` bytes: `build(pad)` places an ignored padding string. */
function paddedBody(build: (pad: string) => object, bytes: number): string {
  const bare = JSON.stringify(build(""));
  return JSON.stringify(build("x".repeat(bytes - bare.length)));
}

const searchBody = (pad: string) => ({ q: "nurse", pad });
// The SDK refuses unknown members of the JSON-RPC envelope; list_cities ignores its arguments.
const mcpBody = (pad: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_cities", arguments: { pad } } });

describe("request body size", () => {
  test("POST /v1/search answers a body of exactly the limit", async () => {
    const body = paddedBody(searchBody, LIMIT);
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    expect((await post("/v1/search", body)).status).toBe(200);
  });

  test("POST /v1/search refuses one byte more with 413 PAYLOAD_TOO_LARGE in the spec's error shape", async () => {
    await expectRestError(await post("/v1/search", paddedBody(searchBody, LIMIT + 1)), 413, "PAYLOAD_TOO_LARGE", /at most 65536 bytes/);
  });

  test("POST /mcp answers a tools/call of exactly the limit", async () => {
    const body = paddedBody(mcpBody, LIMIT);
    const response = await post("/mcp", body);
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).result.structuredContent.cities).toContain("Berlin");
  });

  test("POST /mcp refuses one byte more with HTTP 413 and a JSON-RPC error naming PAYLOAD_TOO_LARGE", async () => {
    const body = paddedBody(mcpBody, LIMIT + 1);
    const response = await post("/mcp", body);
    expect(response.status).toBe(413);
    expect(response.headers.get("x-request-id")).toMatch(UUID);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Payload too large: request body must be at most 65536 bytes", data: { error_code: "PAYLOAD_TOO_LARGE" } },
    });
  });

  test.each(["/v1/search", "/mcp"])("%s stops reading a chunked body without content-length at the limit", async (path) => {
    // An endless body: were it buffered unbounded, no answer would ever come (or Bun's 1 MiB backstop
    // would answer with an empty 413 instead of ours).
    const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: ${MCP_ACCEPT}\r\nx-api-key: ${t.apiKey}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const { status, body, sent } = await rawExchange(t.server.port, head, () => `1000\r\n${" ".repeat(0x1000)}\r\n`);
    expect(status).toBe(413);
    expect(body).toContain("PAYLOAD_TOO_LARGE");
    expect(sent).toBeLessThan(1024 * 1024);
  });
});

describe("query length and page size", () => {
  const query = (length: number) => "nurse ".repeat(length).slice(0, length);

  test(`q of ${QUERY_MAX_LENGTH} characters is searched; one more is 400 INVALID_PARAMETER on GET, POST and MCP`, async () => {
    expect((await post("/v1/search", JSON.stringify({ q: query(QUERY_MAX_LENGTH) }))).status).toBe(200);
    const tooLong = query(QUERY_MAX_LENGTH + 1);
    await expectRestError(await post("/v1/search", JSON.stringify({ q: tooLong })), 400, "INVALID_PARAMETER", /^q must be at most 1000 characters$/);
    const get = await fetch(`${t.url}/v1/search?${new URLSearchParams({ q: tooLong })}`, { headers: { "x-api-key": t.apiKey } });
    await expectRestError(get, 400, "INVALID_PARAMETER", /^q must be at most 1000 characters$/);
    const mcp = await post("/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_jobs", arguments: { query: tooLong } } }));
    expect(((await mcp.json()) as any).result).toEqual({ isError: true, content: [{ type: "text", text: "query must be at most 1000 characters" }] });
  });

  test(`detail=full cuts a description to ${DESCRIPTION_MAX_CHARS} characters, never inside a surrogate pair, and flags it`, async () => {
    const response = await post("/v1/search", JSON.stringify({ q: "engineer developer", city: "Longtown", detail: "full" }));
    const { results } = (await response.json()) as { results: any[] };
    const byId = new Map(results.map((r) => [r.job_url, r]));
    const first = byId.get("https://jobs.example.com/long-1");
    expect(first.job_description.length).toBe(DESCRIPTION_MAX_CHARS - 1); // the emoji's high surrogate would have been the last unit
    expect(first.job_description.isWellFormed()).toBe(true);
    expect(first.job_description_truncated).toBe(true);
    const second = byId.get("https://jobs.example.com/long-2");
    expect(second.job_description).toBe(LONG[1]!.job_description.slice(0, DESCRIPTION_MAX_CHARS));
    expect(second.job_description_truncated).toBe(true);
  });

  test("a short description comes whole and unflagged; a full page of 100 stays within the documented bound", async () => {
    const response = await post("/v1/search", JSON.stringify({ q: "engineer", detail: "full", top_k: 500 }));
    const text = await response.text();
    const { results } = JSON.parse(text) as { results: any[] };
    expect(results.length).toBe(44);
    const short = results.find((r) => r.job_url === "https://jobs.example.com/1");
    expect(short.job_description).toBe(fixturePostings()[0]!.job_description);
    expect(short).not.toHaveProperty("job_description_truncated");
    // The bound: 100 results × 32,000 characters × 3 UTF-8 bytes, plus the other fields.
    expect(Buffer.byteLength(text)).toBeLessThan(100 * DESCRIPTION_MAX_CHARS * 3 + 100 * 4096);
  });
});

describe("search timeout", () => {
  let slow: TestServer;
  beforeAll(async () => {
    // 1 ms is always exceeded by a search through LanceDB (embedding plus two LanceDB queries): the
    // in-memory path (which answers 42 postings well within it) and the result cache are off.
    slow = await startTestServer({ records: fixturePostings(), env: { SEARCH_TIMEOUT_MS: "1", SEARCH_CACHE_MB: "0", HOT_PATH_MAX_POSTINGS: "0" } });
  });
  afterAll(() => slow.stop());

  test("REST answers 503 SERVICE_UNAVAILABLE in the spec's error shape on POST and GET", async () => {
    const message = /^search timed out after 1 ms; try again, or narrow the query or filters$/;
    const posted = await fetch(`${slow.url}/v1/search`, {
      method: "POST", headers: { "content-type": "application/json", "x-api-key": slow.apiKey }, body: JSON.stringify({ q: "nurse" }),
    });
    await expectRestError(posted, 503, "SERVICE_UNAVAILABLE", message);
    const got = await fetch(`${slow.url}/v1/search?q=python`, { headers: { "x-api-key": slow.apiKey } });
    await expectRestError(got, 503, "SERVICE_UNAVAILABLE", message);
  });

  test("a timed-out search stops its remaining work: each one is counted where it stopped, none ran to its page", async () => {
    const cancelled = async () => {
      const text = await (await fetch(`${slow.url}/metrics`)).text();
      const counts = [...text.matchAll(/^jobsearch_search_cancelled_total\{stage="(\w+)"\} (\d+)$/gm)];
      return counts.reduce((sum, [, , n]) => sum + Number(n), 0);
    };
    // Searches of the tests before this one may still be stopping.
    let before = await cancelled();
    for (let settled = -1; settled !== before; before = await cancelled()) {
      settled = before;
      await Bun.sleep(300);
    }
    const searches = ["nurse", "python developer", "accountant", "ios engineer", "data scientist"];
    for (const q of searches) {
      const response = await fetch(`${slow.url}/v1/search?q=${encodeURIComponent(q)}&top_k=100&offset=900`, { headers: { "x-api-key": slow.apiKey } });
      expect(response.status).toBe(503);
    }
    // The stopped work ends in the background a moment after the 503.
    await until(cancelled, (count) => count - before >= searches.length, 20);
    expect((await cancelled()) - before).toBe(searches.length);
  });

  test("MCP search_jobs answers an isError result with the same message; list_cities is no search and works", async () => {
    const call = (params: object) =>
      fetch(`${slow.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: MCP_ACCEPT, "x-api-key": slow.apiKey },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params }),
      });
    const searched = await call({ name: "search_jobs", arguments: { query: "accountant" } });
    expect(searched.status).toBe(200);
    expect(await searched.json()).toEqual({
      jsonrpc: "2.0", id: 7,
      result: { isError: true, content: [{ type: "text", text: "search timed out after 1 ms; try again, or narrow the query or filters" }] },
    });
    const listed = (await (await call({ name: "list_cities", arguments: {} })).json()) as any;
    expect(listed.result.structuredContent.total).toBe(6);
  });

  test("the configuration refuses a search timeout that the idle timeout would cut off", () => {
    expect(() => loadConfig({ SEARCH_TIMEOUT_MS: "30000" })).toThrow(/SEARCH_TIMEOUT_MS: must be less than IDLE_TIMEOUT_S/);
    expect(loadConfig({ SEARCH_TIMEOUT_MS: "30000", IDLE_TIMEOUT_S: "31" }).limits).toEqual({
      maxBodyBytes: LIMIT, searchTimeoutMs: 30_000, idleTimeoutSeconds: 31,
    });
  });
});

describe("idle connections", () => {
  test("a request whose body stalls is closed after IDLE_TIMEOUT_S, without an answer", async () => {
    const idle = await startTestServer({ env: { IDLE_TIMEOUT_S: "1", SEARCH_TIMEOUT_MS: "500" } });
    try {
      const head = `POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: ${idle.apiKey}\r\nContent-Length: 1000\r\n\r\n{"q":`;
      const started = performance.now();
      const { status, closed } = await rawExchange(idle.server.port, head);
      expect(closed).toBe(true);
      expect(status).toBeUndefined();
      // Bun checks idle connections every few seconds; the default (30 s) would not close it this soon.
      // The bound is what tells the two settings apart, with room for a busy machine, not a speed.
      expect(performance.now() - started).toBeLessThan(20_000);
    } finally {
      await idle.stop();
    }
  });
});

// --- internal ---

/**
 * Writes `head` on a raw TCP connection, then `more()` every millisecond until an answer arrives or
 * the server closes; returns the status, the body (de-chunked) and how many body bytes were sent.
 */
function rawExchange(port: number, head: string, more?: () => string) {
  return new Promise<{ status?: number; body: string; sent: number; closed: boolean }>((resolve, reject) => {
    let received = "";
    let sent = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const done = (closed: boolean) => {
      clearInterval(timer);
      const [headers = "", ...rest] = received.split("\r\n\r\n");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1];
      let body = rest.join("\r\n\r\n");
      if (/transfer-encoding: chunked/i.test(headers)) body = body.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, "");
      resolve({ ...(status ? { status: Number(status) } : {}), body, sent, closed });
    };
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(socket) {
          socket.write(head);
          if (!more) return;
          timer = setInterval(() => {
            if (received.includes("\r\n\r\n") || sent > 4 * 1024 * 1024) return clearInterval(timer);
            const chunk = more();
            sent += chunk.length;
            socket.write(chunk);
          }, 1);
        },
        data(socket, data) {
          received += data.toString();
          const complete = /content-length: (\d+)/i.exec(received);
          const split = received.indexOf("\r\n\r\n");
          if (complete && split >= 0 && received.length - split - 4 >= Number(complete[1])) {
            done(false);
            socket.end();
          }
        },
        close: () => done(true),
        connectError: (_, error) => reject(error),
      },
    }).catch(reject);
  });
}
