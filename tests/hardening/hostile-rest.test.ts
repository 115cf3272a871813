import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { TestServer } from "../support/helpers.ts";
import {
  asQueryText, CITIES, encodeLoose, fieldOf, HEADER_LIMIT, hostileString, MCP_ACCEPT, nest, PARAMS, postings, printable, searchCase, toJson,
  wireLength,
} from "../support/hostile/arbitraries.ts";
import { check, expectRestError, hostileServer } from "../support/hostile/checks.ts";

/**
 * Property-based tests (fast-check) of every REST parameter (/v1/search, /v1/cities; API keys on /mcp
 * too) against a real server: random strings, huge numbers, wrong types, unicode edge cases and very
 * long values must never give a 5xx, never widen a filter beyond its literal value, and always fail
 * in the spec's shape. The seed is fixed (SEED in tests/support/hostile/arbitraries.ts) and printed
 * with any failure.
 */
const server = hostileServer();
const { send, expectSearchAnswer } = server;
let t: TestServer;
beforeAll(() => {
  t = server.t;
});

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
      // city and country may repeat (a list); any other parameter given twice is a 400.
      const keys = [...parsed.keys()].filter((key) => key !== "city" && key !== "country");
      if (new Set(keys).size < keys.length) {
        await expectRestError(response, ["INVALID_PARAMETER"], /^.* must be given once$/s);
        return;
      }
      if (valid) expect(response.status).toBe(200);
      const sent = Object.fromEntries([...new Set(parsed.keys())].map((key) => [key, parsed.getAll(key).length > 1 ? parsed.getAll(key) : parsed.get(key)]));
      await expectSearchAnswer(response, sent, "q");
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
