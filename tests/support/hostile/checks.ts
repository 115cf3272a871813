/**
 * The server the hostile-input properties run against and the checks of its answers: never a 5xx,
 * filters held to their literal values, errors in the spec's shapes (REST §2.4, JSON-RPC 2.0).
 */
import { afterAll, beforeAll, expect } from "bun:test";
import fc from "fast-check";
import { JobResultSchema } from "../../../shared/job.ts";
import { startTestServer, type TestServer } from "../helpers.ts";
import { byUrl, MCP_ACCEPT, PARAMS, postings, SEED, toJson, UUID } from "./arbitraries.ts";

export interface HostileServer {
  readonly t: TestServer;
  send(url: string, init: RequestInit): Promise<Response>;
  rpc(message: unknown): Promise<Response>;
  expectSearchAnswer(response: Response, sent: Record<string, unknown>, queryField: "q"): Promise<void>;
  expectLiteralFilters(results: unknown[], sent: Record<string, unknown>): void;
}

/**
 * A real server with `postings`, started before the file's properties; after them it prints how many
 * inputs were tried, how many 5xx answers came back and how many answers were checked against filters.
 */
export function hostileServer(): HostileServer {
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
    /** city and country take a list too (any of its values). */
    const anyOf = (name: string) => {
      const values = [sent[name]].flat().filter((value): value is string => typeof value === "string" && value !== "");
      return values.length > 0 ? values : undefined;
    };
    const completed = (value: string) => (value.length === 10 ? `${value} 00:00:00` : value);
    if (results.length > 0 && ["city", "country", "source", "since", "until"].some((name) => anyOf(name) !== undefined)) counts.filtered++;
    for (const raw of results) {
      const result = JobResultSchema.parse(raw);
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThanOrEqual(1);
      const posting = byUrl.get(result.job_url);
      expect(posting).toBeDefined();
      const cities = anyOf("city");
      if (cities !== undefined) expect(cities).toContain(posting!.city ?? "");
      const countries = anyOf("country");
      if (countries !== undefined) expect(countries).toContain(posting!.country ?? "");
      const source = given("source");
      if (source !== undefined) expect(posting!.data_source).toBe(source);
      const since = given("since");
      if (since !== undefined) expect(posting!.publish_time > completed(since)).toBe(true);
      const until = given("until");
      if (until !== undefined) expect(posting!.publish_time < completed(until)).toBe(true);
    }
  }

  return {
    get t() {
      return t;
    },
    send,
    rpc,
    expectSearchAnswer,
    expectLiteralFilters,
  };
}

/** Runs a property with the fixed seed; a failure names the seed so it can be replayed. */
export async function check<T>(numRuns: number, property: fc.IAsyncProperty<T>): Promise<void> {
  try {
    await fc.assert(property, { seed: SEED, numRuns });
  } catch (error) {
    console.error(`property failed with fast-check seed ${SEED} (replay: fc.assert(property, { seed: ${SEED} }))`);
    throw error;
  }
}

/** The spec's error body (job-search-service.md §2.4): exactly {request_id, error, error_code}, request_id equal to x-request-id. */
export async function expectRestError(response: Response, codes: string[], message?: RegExp) {
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
export async function expectJsonRpc(response: Response, id: unknown): Promise<Record<string, any>> {
  expect(response.status).toBe(200);
  const body = (await response.json()) as Record<string, unknown>;
  expectJsonRpcMessage(body);
  expect(body.id).toEqual(JSON.parse(toJson(id)));
  return body;
}

/** jsonrpc "2.0", an id (or null), and exactly one of result and error{code: integer, message: string}. */
export function expectJsonRpcMessage(message: unknown) {
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

export function isPlainObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
