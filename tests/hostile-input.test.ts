/**
 * Property-based tests (fast-check) of every parameter of both interfaces against a real server:
 * random strings, huge numbers, wrong types, unicode edge cases and very long values must never
 * give a 5xx, never widen a filter beyond its literal value, and always fail in the spec's shape.
 * The seed is fixed (SEED below) and printed with any failure; change it to explore further.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { JobResultSchema } from "../shared/job.ts";
import { fixturePostings, type FixturePosting } from "./support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "./support/helpers.ts";

const SEED = 20_261_122;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MCP_ACCEPT = "application/json, text/event-stream";
const PARAMS = ["q", "query", "city", "country", "since", "until", "source", "top_k", "offset", "detail", "min_score", "sort", "collapse", "explain"];
/** Bun answers a request line plus headers over 16 KiB with a bare 431 before any route runs (documented). */
const HEADER_LIMIT = 16 * 1024;
/** The URL as sent: the WHATWG parser percent-encodes more than encodeURIComponent (e.g. `'` in a query). */
const wireLength = (url: string) => new URL(url).href.length;

/** Cities a naive filter would confuse with each other or with SQL: each gets one posting beside the fixtures. */
const HOSTILE_CITIES = [
  "a' OR 'x'='x", "O''Hare", "Back\\slash", "Back\\\\slash", "100%", "_", "%' --", "Berlin ", "berlin", "BERLIN",
  "Zu\u0308rich", "\u202EnilreB", "\u200FBerlin", "\"; DROP TABLE jobs; --", "東京🏙️", "`city`", "NULL", "Berlin\tMitte",
];
const postings = [...fixturePostings(), ...hostilePostings()];
const byUrl = new Map(postings.map((p) => [p.job_url, p]));
const CITIES = [...new Set(postings.map((p) => p.city).filter((c): c is string => c !== null))];

let t: TestServer;
/** Inputs sent, 5xx answers, and answers whose results were checked against at least one filter. */
const counts = { tried: 0, fiveXX: 0, filtered: 0 };

beforeAll(async () => {
  t = await startTestServer({ records: postings, env: { RATE_LIMIT_PER_MINUTE: "100000000" } });
});
afterAll(async () => {
  console.log(
    `hostile input: ${counts.tried} inputs tried, ${counts.fiveXX} 5xx seen, ${counts.filtered} answers with results checked against filters (fast-check seed ${SEED})`,
  );
  await t.stop();
});

// --- arbitraries ---

const EDGE_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\uD800", "\uDFFF", "x\uDBFF", "\uDC00x", "\u200F", "\u202E", "\u200B", "\uFEFF", "e\u0301",
  "\u0301", "👩‍👩‍👧‍👦", "🏳️‍🌈", "\uFFFF", "\u{10FFFF}", "\r\n", "\t", "\\", "\\'", "'", "''", "\"", "%", "_", "*",
  "' OR '1'='1", "') OR ('1'='1", "x' OR 1=1 --", "1; DROP TABLE jobs", "city = city", "NULL", "true", "<script>alert(1)</script>",
  "${x}", "../../etc/passwd", "%00", "%ZZ", "2026-03-01' OR '1'='1", "前端工程师", "مهندس", "🙂".repeat(600),
];
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), loneSurrogate, fc.string({ maxLength: 10 })).map((p) => p.join("")) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 5000 }).chain((n) => fc.constantFrom("x".repeat(n), "é".repeat(n), "'".repeat(n), "😀".repeat(n >> 1))) },
);
/** A marker JSON.stringify keeps as a string; `toJson` turns it into a bare number literal such as 1e999. */
const RAW = "\u0001raw:";
const hugeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -(2 ** 63), 1e21, 0.5, -0, Number.MIN_VALUE),
  fc.constantFrom("1e999", "-1e999", "123456789012345678901234567890", "1e-400", "0.1e1", "1E2", "-0.0").map((n) => RAW + n),
);
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(), fc.double(), hugeNumber, fc.boolean(), fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.integer({ min: 1, max: 2000 }).map((depth) => nest(depth)),
);
const anyValue = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 2, arbitrary: wrongType });

const knownCity = fc.constantFrom(...CITIES);
const cityLike = knownCity.chain((city) =>
  fc.constantFrom(
    city, `${city} `, ` ${city}`, city.toUpperCase(), city.toLowerCase(), `${city}'`, `${city}\\`, `${city}%`, `${city}_`,
    `${city}' OR '1'='1`, `${city}' --`, city.normalize("NFD"), city.normalize("NFC"), `${city}\u0000`, `\u200F${city}`, `${city}\u0301`,
    city.replaceAll("'", "''"), city.replaceAll("''", "'"), city.replaceAll("\\", "\\\\"),
  ),
);
const dateLike = fc.oneof(
  fc.date({ min: new Date("2026-02-27T00:00:00Z"), max: new Date("2026-03-04T00:00:00Z"), noInvalidDate: true })
    .chain((d) => fc.constantFrom(d.toISOString().slice(0, 10), d.toISOString().slice(0, 19).replace("T", " "))),
  fc.constantFrom("2026-02-30", "2026-13-01", "9999-99-99", "2026-03-01T00:00:00", "2026-03-01 24:00:00", "0000-00-00", "2026-3-1", "+2026-03-01", "2026-03-01 00:00:00Z"),
);
/** Search parameters: mostly plausible values (so searches run and filters are exercised), often hostile ones. */
const searchParams = (queryField: "q" | "query") =>
  fc.record(
    {
      [queryField]: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("nurse", "python backend engineer", "前端工程师", "swift ios") }, { weight: 3, arbitrary: anyValue }),
      city: fc.oneof({ weight: 3, arbitrary: cityLike }, { weight: 2, arbitrary: anyValue }),
      country: fc.oneof(fc.constantFrom("US", "DE", "GB", "CH", "CN", "us", "U", "USA", "' OR 1=1", "U\u0000"), anyValue),
      since: fc.oneof({ weight: 2, arbitrary: dateLike }, { weight: 1, arbitrary: anyValue }),
      until: fc.oneof({ weight: 2, arbitrary: dateLike }, { weight: 1, arbitrary: anyValue }),
      source: fc.oneof(fc.constantFrom("indeed", "linkedin", "Indeed", "indeed ", "indeed' OR '1'='1", "linkedin\u0000"), anyValue),
      top_k: fc.oneof(fc.integer({ min: -1000, max: 1000 }), hugeNumber, fc.constantFrom("5", "1.5", "0x10", "1e2", " 7 "), anyValue),
      offset: fc.oneof(fc.integer({ min: -10, max: 20_000 }), hugeNumber, fc.constantFrom("3", "-1", "1.0"), anyValue),
      detail: fc.oneof(fc.constantFrom("summary", "full", "FULL", "full "), anyValue),
      min_score: fc.oneof(fc.double({ min: -1, max: 2 }), fc.constantFrom("0.5", "1", "-0", ".5", "NaN", "Infinity"), anyValue),
      sort: fc.oneof(fc.constantFrom("date", "relevance", "score"), anyValue),
      collapse: fc.oneof(fc.boolean(), fc.constantFrom("true", "false", "1", "yes"), anyValue),
      explain: fc.oneof(fc.boolean(), fc.constantFrom("true", "false", "0"), anyValue),
      extra: anyValue,
    },
    { requiredKeys: [] },
  );
/** A time `hours` before (negative: after) a posting's publish time, in either accepted form. */
const around = (publishTime: string, hours: number, dateOnly: boolean) => {
  const iso = new Date(Date.parse(`${publishTime.replace(" ", "T")}Z`) - hours * 3_600_000).toISOString();
  return dateOnly ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
};
/**
 * Parameters every one of which is valid (the search must answer 200), aimed at one posting so that
 * filters usually match something: its own city (or a look-alike), country, source and a window around
 * its publish time. `extra` is an unknown field, ignored.
 */
const validParams = (queryField: "q" | "query") =>
  fc.constantFrom(...postings).chain((target) =>
    fc.record(
      {
        [queryField]: fc.oneof(
          fc.constantFrom("nurse", "python backend engineer", "前端工程师", "swift ios", "'", "\\", "%", "x' OR 1=1 --", "\u0000", "e\u0301"),
          fc.string({ unit: "grapheme", minLength: 1, maxLength: 80 }).filter((q) => q.trim() !== ""),
        ),
        city: fc.oneof({ weight: 3, arbitrary: fc.constant(target.city ?? "Berlin") }, { weight: 1, arbitrary: cityLike }),
        country: fc.oneof({ weight: 3, arbitrary: fc.constant(target.country ?? "US") }, { weight: 1, arbitrary: fc.constantFrom("US", "DE", "GB", "CH", "CN") }),
        since: fc.tuple(fc.integer({ min: -2, max: 30 }), fc.boolean()).map(([hours, dateOnly]) => around(target.publish_time, hours, dateOnly)),
        until: fc.tuple(fc.integer({ min: -30, max: 2 }), fc.boolean()).map(([hours, dateOnly]) => around(target.publish_time, hours - 24 * Number(dateOnly), dateOnly)),
        source: fc.oneof({ weight: 3, arbitrary: fc.constant(target.data_source) }, { weight: 1, arbitrary: fc.constantFrom("indeed", "linkedin") }),
        top_k: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(1e21, 2 ** 53 + 2, -(2 ** 63))),
        offset: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 60 }) }),
        detail: fc.constantFrom("summary", "full"),
        min_score: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 100 }).map((n) => n / 100) }),
        sort: fc.constantFrom("date", "relevance"),
        collapse: fc.boolean(),
        explain: fc.boolean(),
        extra: anyValue,
      },
      { requiredKeys: [queryField] },
    ),
  );
/** A third valid (must be 200), a third valid but for one hostile parameter, a third hostile throughout. */
const searchCase = (queryField: "q" | "query") =>
  fc.oneof(
    validParams(queryField).map((params) => ({ params: params as Record<string, unknown>, valid: true })),
    fc.tuple(validParams(queryField), fc.constantFrom(...PARAMS.filter((p) => p !== (queryField === "q" ? "query" : "q"))), anyValue)
      .map(([params, key, value]) => ({ params: { ...params, [key]: value } as Record<string, unknown>, valid: false })),
    searchParams(queryField).map((params) => ({ params: params as Record<string, unknown>, valid: false })),
  );
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

// --- properties: REST ---

describe("REST /v1/search and /v1/cities under hostile input", () => {
  test("POST /v1/search: any JSON body gives 200 with filters held to their literal values, or a 400 in the spec's shape", async () => {
    await check(200, fc.asyncProperty(searchCase("q"), fc.constantFrom("application/json", "text/plain", "", "application/x-www-form-urlencoded"), async ({ params, valid }, contentType) => {
      const response = await send(`${t.url}/v1/search`, { method: "POST", headers: { "content-type": contentType, "x-api-key": t.apiKey }, body: toJson(params) });
      if (valid) expect(response.status).toBe(200);
      await expectSearchAnswer(response, JSON.parse(toJson(params)), "q");
    }));
  });

  test("POST /v1/search: any body text (not JSON, not an object, deep nesting) gives a 400 in the spec's shape or a search", async () => {
    const bodyText = fc.oneof(
      hostileString,
      fc.json(),
      fc.constantFrom("{", "{\"q\":", "[]", "null", "0", "\"q\"", "{\"q\":\"x\"}garbage", "\uFEFF{\"q\":\"nurse\"}", "{\"q\":\"x\",\"q\":\"y\"}"),
      fc.integer({ min: 1, max: 30_000 }).map((depth) => `{"q":"x","city":${JSON.stringify(nest(Math.min(depth, 2000)))}}`),
    );
    await check(120, fc.asyncProperty(bodyText, async (body) => {
      const response = await send(`${t.url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": t.apiKey }, body });
      let params: unknown;
      try {
        params = JSON.parse(body.replace(/^\uFEFF/, "")); // the server decodes UTF-8 as TextDecoder does: a BOM is dropped
      } catch {
        params = undefined;
      }
      if (params !== null && typeof params === "object" && !Array.isArray(params)) {
        await expectSearchAnswer(response, params as Record<string, unknown>, "q");
      } else {
        await expectRestError(response, body.trim() === "" ? ["MISSING_QUERY"] : ["INVALID_JSON", "INVALID_PARAMETER"]);
      }
    }));
  });

  test("GET /v1/search: any query string (raw escapes, duplicates, lone surrogates) gives 200 with literal filters or a 400", async () => {
    const randomPairs = fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PARAMS) }, { weight: 1, arbitrary: hostileString }), hostileString), { maxLength: 3 });
    const rawTail = fc.oneof(
      { weight: 4, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: fc.constantFrom("&", "&&", "&%", "&q=%ZZ", "&city=%ED%A0%80", "&city=%00", "&=x", "&city", "&q=a+b", "#frag", "&top_k=1&top_k=2") },
    );
    await check(200, fc.asyncProperty(searchCase("q"), randomPairs, rawTail, async ({ params, valid }, extra, tail) => {
      const entries = [...Object.entries(params).map(([k, v]) => [k, asQueryText(v)] as const), ...(valid ? [] : extra)];
      const query = entries.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join("&") + (valid ? "" : tail);
      const url = `${t.url}/v1/search?${query}`;
      const response = await send(url, { headers: { "x-api-key": t.apiKey } });
      if (wireLength(url) > HEADER_LIMIT - 512) {
        expect([400, 431]).toContain(response.status);
        return;
      }
      const parsed = new URL(url).searchParams;
      const keys = [...parsed.keys()];
      if (new Set(keys).size < keys.length) {
        await expectRestError(response, ["INVALID_PARAMETER"], /^.* must be given once$/s);
        return;
      }
      if (valid) expect(response.status).toBe(200);
      await expectSearchAnswer(response, Object.fromEntries(parsed), "q");
    }));
  });

  test("an exact filter returns exactly the postings with that literal value, whatever the query", async () => {
    const filter = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...CITIES).map((city) => ({ city })) },
      { weight: 1, arbitrary: fc.constantFrom("US", "DE", "GB", "CH", "CN").map((country) => ({ country })) },
      { weight: 1, arbitrary: fc.constantFrom("indeed", "linkedin").map((source) => ({ source })) },
    );
    const query = fc.oneof(fc.constantFrom("nurse", "engineer", "'", "\\", "%", "x' OR 1=1 --"), fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }).filter((s) => s.trim() !== ""));
    await check(80, fc.asyncProperty(filter, query, fc.boolean(), async (f, q, viaGet) => {
      const params = { q, ...f, top_k: 100, collapse: false };
      const response = viaGet
        ? await send(`${t.url}/v1/search?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, { headers: { "x-api-key": t.apiKey } })
        : await send(`${t.url}/v1/search`, { method: "POST", headers: { "x-api-key": t.apiKey }, body: JSON.stringify(params) });
      expect(response.status).toBe(200);
      const { results } = (await response.json()) as { results: Array<{ job_url: string }> };
      const expected = postings.filter((p) => Object.entries(f).every(([k, v]) => fieldOf(p, k) === v)).map((p) => p.job_url).sort();
      expect(results.map((r) => r.job_url).sort()).toEqual(expected);
    }));
  });

  test("a wrong or forged API key is 403 AUTH_INVALID_KEY on every REST endpoint and on /mcp", async () => {
    const forged = fc.oneof(
      printable,
      fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 16, maxLength: 16 }).map((id) => `jsk_${id}_${"A".repeat(43)}`),
      fc.integer({ min: 4, max: 60 }).map((i) => `${t.apiKey.slice(0, i)}${t.apiKey[i] === "A" ? "B" : "A"}${t.apiKey.slice(i + 1)}`),
      fc.constantFrom(`${t.apiKey}x`, t.apiKey.slice(0, -1), t.apiKey.toUpperCase(), "' OR '1'='1", "%00", "null", "undefined"),
    );
    const endpoint = fc.constantFrom("GET /v1/search?q=nurse", "POST /v1/search", "GET /v1/cities", "POST /mcp");
    await check(80, fc.asyncProperty(forged.filter((key) => key.trim() !== t.apiKey), endpoint, async (key, target) => {
      const [method, path] = target.split(" ") as [string, string];
      const body = path === "/mcp" ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) : JSON.stringify({ q: "nurse" });
      const response = await send(`${t.url}${path}`, {
        method,
        headers: { "x-api-key": key, "content-type": "application/json", accept: MCP_ACCEPT },
        ...(method === "POST" ? { body } : {}),
      });
      await expectRestError(response, ["AUTH_INVALID_KEY"], /^Invalid API key$/);
    }));
  });

  test("GET /v1/cities ignores any query string and answers the city counts", async () => {
    await check(30, fc.asyncProperty(fc.array(fc.tuple(hostileString, hostileString), { maxLength: 4 }), async (entries) => {
      const query = entries.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join("&");
      const url = `${t.url}/v1/cities?${query}`;
      const response = await send(url, { headers: { "x-api-key": t.apiKey } });
      if (wireLength(url) > HEADER_LIMIT - 512) return void expect([200, 431]).toContain(response.status);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { request_id: string; total: number; cities: Array<{ city: string }> };
      expect(body.request_id).toBe(response.headers.get("x-request-id")!);
      expect(body.cities.map((c) => c.city).sort()).toEqual([...CITIES].sort());
    }));
  });
});

// --- properties: MCP ---

describe("MCP /mcp under hostile input", () => {
  test("tools/call search_jobs: any arguments give a result with literal filters, an isError naming the argument, or a JSON-RPC error", async () => {
    const args = fc.oneof(
      { weight: 6, arbitrary: searchCase("query") },
      { weight: 1, arbitrary: wrongType.map((params) => ({ params: params as unknown, valid: false })) },
    );
    await check(200, fc.asyncProperty(args, fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), async ({ params: a, valid }, id) => {
      const response = await rpc({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_jobs", arguments: a } });
      const body = await expectJsonRpc(response, id);
      if ("error" in body) {
        expect(isPlainObject(JSON.parse(toJson(a)))).toBe(false); // only a non-object `arguments` is a protocol error
        return;
      }
      const result = body.result as { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: any };
      expect(result.content).toHaveLength(1);
      expect(result.content[0]!.type).toBe("text");
      const sent = JSON.parse(toJson(a)) as Record<string, unknown>;
      if (valid) expect(result.isError).toBeUndefined();
      if (result.isError) {
        expect(result.content[0]!.text).toMatch(new RegExp(`^(query is required|(${PARAMS.join("|")}) )`));
        return;
      }
      expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
      expectLiteralFilters(result.structuredContent.results, sent);
    }));
  });

  test("tools/call list_cities ignores any arguments; unknown tools give the spec's isError text", async () => {
    const name = fc.oneof({ weight: 2, arbitrary: fc.constant("list_cities") }, { weight: 1, arbitrary: hostileString });
    await check(60, fc.asyncProperty(name, fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 3 }), async (tool, a) => {
      const response = await rpc({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: tool, arguments: a } });
      const body = await expectJsonRpc(response, 9);
      expect(body.error).toBeUndefined();
      const result = body.result as { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: any };
      if (tool === "list_cities") {
        expect(result.structuredContent.cities).toEqual([...CITIES].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      } else if (tool !== "search_jobs") {
        expect(result).toEqual({ isError: true, content: [{ type: "text", text: `MCP error -32602: Tool ${tool} not found` }] });
      }
    }));
  });

  test("the JSON-RPC envelope: any jsonrpc, id, method, params, batch, body text or headers gives a well-formed answer, never a 5xx", async () => {
    const method = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom("initialize", "tools/list", "tools/call", "ping", "notifications/initialized", "resources/list", "prompts/list", "logging/setLevel", "completion/complete") },
      { weight: 1, arbitrary: anyValue },
    );
    const envelope = fc.record(
      {
        jsonrpc: fc.oneof({ weight: 4, arbitrary: fc.constant("2.0") }, { weight: 1, arbitrary: anyValue }),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), hugeNumber, anyValue),
        method,
        params: fc.oneof(
          fc.constant({}),
          fc.constant({ protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "fuzz", version: "0" } }),
          fc.record({ name: fc.constantFrom("search_jobs", "list_cities"), arguments: fc.constant({ query: "nurse" }) }),
          anyValue,
        ),
      },
      { requiredKeys: ["method"] },
    );
    const body = fc.oneof(
      { weight: 5, arbitrary: envelope.map(toJson) },
      { weight: 1, arbitrary: fc.array(envelope, { minLength: 1, maxLength: 3 }).map(toJson) },
      { weight: 1, arbitrary: fc.oneof(hostileString, fc.json(), fc.constantFrom("", "{", "[]", "[[]]", "null", "{\"jsonrpc\":\"2.0\"")) },
    );
    const accept = fc.oneof({ weight: 6, arbitrary: fc.constant(MCP_ACCEPT) }, { weight: 1, arbitrary: fc.constantFrom("application/json", "text/event-stream", "*/*", "") }, { weight: 1, arbitrary: printable });
    const contentType = fc.oneof({ weight: 6, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: fc.constantFrom("text/plain", "", "application/json; charset=utf-8") });
    await check(250, fc.asyncProperty(body, accept, contentType, async (text, acceptHeader, type) => {
      const response = await send(`${t.url}/mcp`, { method: "POST", headers: { "x-api-key": t.apiKey, accept: acceptHeader, "content-type": type }, body: text });
      expect(response.status).toBeLessThan(500);
      expect(response.headers.get("x-request-id")).toMatch(UUID);
      const raw = await response.text();
      if (response.status === 202) return void expect(raw).toBe("");
      const answer = JSON.parse(raw) as unknown;
      for (const message of Array.isArray(answer) ? answer : [answer]) expectJsonRpcMessage(message);
      if (response.status === 406) {
        expect((answer as any).error.code).toBe(-32000);
        expect((answer as any).error.message).toStartWith("Not Acceptable:");
        expect((answer as any).id).toBeNull();
      }
    }));
  });
});

// --- internal ---

/** One extra posting per hostile city, cycling through the fixture roles, an hour apart. */
function hostilePostings(): FixturePosting[] {
  const base = fixturePostings();
  return HOSTILE_CITIES.map((city, i) => ({
    ...base[i % 6]!,
    id: `hx-${i}`,
    city,
    country: i % 2 === 0 ? "US" : "DE",
    company_name: `Hostile ${i}`,
    data_source: i % 3 === 0 ? "linkedin" : "indeed",
    publish_time: new Date(Date.UTC(2026, 2, 3, 0, 0, 0) + i * 3_600_000).toISOString().slice(0, 19).replace("T", " "),
    job_url: `https://jobs.example.com/hostile/${i}`,
  }));
}

function nest(depth: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** JSON with the raw-number markers turned into bare literals (1e999, 30-digit integers …). */
function toJson(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(/"\\u0001raw:([^"]*)"/g, "$1");
}

/** Percent-encodes like encodeURIComponent, but a lone surrogate becomes its (invalid) UTF-8-style bytes instead of throwing. */
function encodeLoose(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code >= 0xd800 && code <= 0xdfff
      ? `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`
      : encodeURIComponent(char);
  }
  return out;
}

/** A generated value as query-string text: integers in digits (1e21 too), raw-number markers as their literal. */
function asQueryText(value: unknown): string {
  if (typeof value === "string") return value.startsWith(RAW) ? value.slice(RAW.length) : value;
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  if (typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "";
}

async function send(url: string, init: RequestInit): Promise<Response> {
  counts.tried++;
  const response = await fetch(url, init);
  if (response.status >= 500) counts.fiveXX++;
  return response;
}

function rpc(message: unknown): Promise<Response> {
  return send(`${t.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: MCP_ACCEPT, "x-api-key": t.apiKey },
    body: toJson(message),
  });
}

/** Runs a property with the fixed seed; a failure names the seed so it can be replayed. */
async function check<T>(numRuns: number, property: fc.IAsyncProperty<T>): Promise<void> {
  try {
    await fc.assert(property, { seed: SEED, numRuns });
  } catch (error) {
    console.error(`property failed with fast-check seed ${SEED} (replay: fc.assert(property, { seed: ${SEED} }))`);
    throw error;
  }
}

/** A search answer: 200 with every filter held to its literal value, or a 400 in the spec's shape. */
async function expectSearchAnswer(response: Response, sent: Record<string, unknown>, queryField: "q") {
  expect(response.status).toBeLessThan(500);
  if (response.status !== 200) return expectRestError(response, ["MISSING_QUERY", "INVALID_PARAMETER"]);
  const body = (await response.json()) as { request_id: string; total: number; search_time_ms: number; results: unknown[] };
  expect(Object.keys(body).sort()).toEqual(["query", "request_id", "results", "search_time_ms", "total"]);
  expect(body.request_id).toBe(response.headers.get("x-request-id")!);
  expect(body.total).toBe(body.results.length);
  expect(body.total).toBeLessThanOrEqual(100);
  expect(typeof sent[queryField]).toBe("string");
  expectLiteralFilters(body.results, sent);
}

/** Every result is a stored posting and matches each given filter exactly (never a wider set). */
function expectLiteralFilters(results: unknown[], sent: Record<string, unknown>) {
  const given = (name: string) => (typeof sent[name] === "string" && sent[name] !== "" ? (sent[name] as string) : undefined);
  const completed = (value: string) => (value.length === 10 ? `${value} 00:00:00` : value);
  if (results.length > 0 && ["city", "country", "source", "since", "until"].some((name) => given(name) !== undefined)) counts.filtered++;
  for (const raw of results) {
    const result = JobResultSchema.parse(raw);
    expect(result.score).toBeGreaterThanOrEqual(0);
    expect(result.score).toBeLessThanOrEqual(1);
    const posting = byUrl.get(result.job_url);
    expect(posting).toBeDefined();
    const city = given("city");
    if (city !== undefined) expect(posting!.city).toBe(city);
    const country = given("country");
    if (country !== undefined) expect(posting!.country).toBe(country);
    const source = given("source");
    if (source !== undefined) expect(posting!.data_source).toBe(source);
    const since = given("since");
    if (since !== undefined) expect(posting!.publish_time > completed(since)).toBe(true);
    const until = given("until");
    if (until !== undefined) expect(posting!.publish_time < completed(until)).toBe(true);
  }
}

/** The spec's error body (§2.4): exactly {request_id, error, error_code}, request_id equal to x-request-id. */
async function expectRestError(response: Response, codes: string[], message?: RegExp) {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_code", "request_id"]);
  expect(codes).toContain(body.error_code as string);
  expect(body.request_id).toMatch(UUID);
  expect(response.headers.get("x-request-id")).toBe(body.request_id as string);
  expect(typeof body.error).toBe("string");
  if (body.error_code === "INVALID_PARAMETER") {
    expect(body.error).toMatch(new RegExp(`^(${PARAMS.join("|")}|body) |^.* must be given once$`, "s"));
  }
  if (message) expect(body.error).toMatch(message);
}

/** A JSON-RPC 2.0 response (HTTP 200) to a request with this id. */
async function expectJsonRpc(response: Response, id: unknown): Promise<Record<string, any>> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as Record<string, unknown>;
  expectJsonRpcMessage(body);
  expect(body.id).toEqual(JSON.parse(toJson(id)));
  return body;
}

/** jsonrpc "2.0", an id (or null), and exactly one of result and error{code: integer, message: string}. */
function expectJsonRpcMessage(message: unknown) {
  expect(isPlainObject(message)).toBe(true);
  const m = message as Record<string, any>;
  expect(m.jsonrpc).toBe("2.0");
  expect(m.id === null || typeof m.id === "string" || typeof m.id === "number").toBe(true);
  expect("result" in m !== "error" in m).toBe(true);
  if ("error" in m) {
    expect(Number.isInteger(m.error.code)).toBe(true);
    expect(typeof m.error.message).toBe("string");
  }
}

function isPlainObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldOf(posting: FixturePosting, name: string): unknown {
  return name === "source" ? posting.data_source : posting[name as keyof FixturePosting];
}
