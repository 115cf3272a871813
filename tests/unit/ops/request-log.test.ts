/** The request log: one line per request, never a secret or the query; probes at debug; the pretty format. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { createLogger, defaultLogFormat } from "../../../server/log.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { logWatch, mcpCall, postSearch } from "../../support/ops.ts";
import { memoryProvider, signIn } from "../../support/sign-in.ts";

const postings = fixturePostings();
const watch = logWatch();
const lines = watch.lines;
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ records: postings, log: watch.logger });
});
afterAll(() => t.stop());

/** The request line of the request that got this x-request-id (it is written after the response: waited for). */
const requestLine = (response: Response): Promise<Record<string, unknown>> => watch.request(response);

describe("request logs", () => {
  test("one JSON line per request with request_id, route, status, duration and principal; never a key or the query", async () => {
    const limited = await t.server.keys.create("limited-log", 1);
    const ok = await postSearch(t.url, t.apiKey, "confidential query words");
    const forbidden = await postSearch(t.url, "jsk_0123456789abcdef_notavalidsecretnotavalidsecretnotavalidsecr");
    await postSearch(t.url, limited.key);
    const refused = await postSearch(t.url, limited.key);
    const get = await fetch(`${t.url}/v1/search?q=secretive+words&top_k=1`, { headers: { "x-api-key": t.apiKey } });
    const mcp = await mcpCall(t.url, { "x-api-key": t.apiKey }, "list_cities", {});
    const unknown = await fetch(`${t.url}/v1/nothing-here?token=abc`);
    expect([ok.status, forbidden.status, refused.status, get.status, mcp.status, unknown.status]).toEqual([200, 403, 429, 200, 200, 404]);

    const keyId = (await t.server.keys.verify(t.apiKey))!.id;
    const okLine = await requestLine(ok);
    expect(okLine).toMatchObject({ level: "info", method: "POST", route: "/v1/search", status: 200, principal: `key:${keyId}`, auth: "api_key" });
    expect(okLine.duration_ms).toBeNumber();
    expect(okLine.duration_ms as number).toBeGreaterThan(0);
    expect(okLine.time).toBeString();

    const forbiddenLine = await requestLine(forbidden);
    expect(forbiddenLine).toMatchObject({ route: "/v1/search", status: 403 });
    expect(forbiddenLine.principal).toBeUndefined();
    expect(await requestLine(refused)).toMatchObject({ route: "/v1/search", status: 429, principal: `key:${limited.id}` });
    expect(await requestLine(get)).toMatchObject({ method: "GET", route: "/v1/search", status: 200 });
    expect(await requestLine(mcp)).toMatchObject({ route: "/mcp", status: 200, principal: `key:${keyId}`, tool: "list_cities" });
    expect(await requestLine(unknown)).toMatchObject({ method: "GET", route: "unmatched", status: 404 });

    const log = lines.join("");
    for (const secret of [t.apiKey, limited.key, t.apiKey.slice("jsk_0123456789abcdef_".length), "notavalidsecret"]) expect(log).not.toContain(secret);
    for (const query of ["confidential", "secretive", "token=abc", "nothing-here"]) expect(log).not.toContain(query);
  });

  test("an OAuth bearer token and the API key typed into the sign-in form never reach the log", async () => {
    const created = await t.server.keys.create("oauth user");
    const { provider, saved } = memoryProvider("http://127.0.0.1:8976/callback", "Log Test");
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: "log-test", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const approved = await signIn(saved.url!.href, created.key);
    await transport.finishAuth(new URL(approved.headers.get("location")!).searchParams.get("code")!);
    const token = saved.tokens!.access_token;

    const call = await mcpCall(t.url, { authorization: `Bearer ${token}` }, "list_cities", {});
    expect(call.status).toBe(200);
    expect(await requestLine(call)).toMatchObject({ route: "/mcp", status: 200, principal: `key:${created.id}`, auth: "oauth" });
    const bad = await mcpCall(t.url, { authorization: `Bearer ${token}garbled` }, "list_cities", {});
    expect(bad.status).toBe(401);
    expect((await requestLine(bad)).principal).toBeUndefined();
    expect(await requestLine(approved)).toMatchObject({ method: "POST", route: "/authorize", status: 302 });

    const log = lines.join("");
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split(".")[2]!);
    expect(log).not.toContain(created.key);
    expect(log).not.toContain(saved.tokens!.refresh_token!);
  });

  test("probes and scrapes are logged at debug only; the search text too", async () => {
    const debug = logWatch("debug");
    const d = await startTestServer({ records: postings.slice(0, 3), log: debug.logger });
    try {
      const health = await fetch(`${d.url}/healthz`);
      const search = await postSearch(d.url, d.apiKey, "debuggable words");
      // The search text's line follows the request line in the same step.
      await Promise.all([debug.request(health), debug.request(search)]);
      const entries = debug.entries;
      expect(entries.find((e) => e.request_id === health.headers.get("x-request-id"))).toMatchObject({ level: "debug", route: "/healthz", status: 200 });
      const searchId = search.headers.get("x-request-id");
      expect(entries.find((e) => e.request_id === searchId && e.msg === "request")).toMatchObject({ level: "info", status: 200 });
      expect(entries.find((e) => e.request_id === searchId && e.msg === "search query")).toMatchObject({ level: "debug", query: "debuggable words" });
    } finally {
      await d.stop();
    }
  });
});

describe("pretty logs", () => {
  test("a request is one short line for people; other events show their fields", () => {
    const out: string[] = [];
    const log = createLogger("info", (line) => out.push(line), { format: "pretty" });
    log.info("request", { request_id: "r1", method: "POST", route: "/v1/search", status: 200, duration_ms: 12.3, principal: "key:abc" });
    log.info("request", { request_id: "r2", method: "GET", route: "unmatched", status: 404, duration_ms: 0.4 });
    log.warn("ready", { url: "http://localhost:3000", postings: 12, note: "two words" });
    log.error("unexpected error", { error: new Error("boom") });
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d INFO  POST \/v1\/search 200 12\.3ms key:abc request_id=r1\n$/);
    expect(out[1]).toMatch(/^\d\d:\d\d:\d\d INFO  GET unmatched 404 0\.4ms - request_id=r2\n$/);
    expect(out[2]).toMatch(/^\d\d:\d\d:\d\d WARN  ready url=http:\/\/localhost:3000 postings=12 note="two words"\n$/);
    expect(out[3]).toStartWith(out[3]!.slice(0, 8) + ' ERROR unexpected error error="boom"\n    Error: boom');
  });

  test("LOG_FORMAT wins; unset, a terminal gets pretty and anything else JSON", () => {
    expect(defaultLogFormat(undefined, true)).toBe("pretty");
    expect(defaultLogFormat(undefined, false)).toBe("json");
    expect(defaultLogFormat("json", true)).toBe("json");
    expect(defaultLogFormat("pretty", false)).toBe("pretty");
  });
});
