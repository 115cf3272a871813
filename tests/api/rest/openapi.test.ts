import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { ErrorBodySchema, RateLimitedBodySchema } from "../../../shared/errors.ts";
import { CityCountsSchema, JobResponseSchema, SearchParametersSchema, SearchResponseSchema } from "../../../shared/search.ts";
import { CITIES_EXAMPLE, JOB_EXAMPLE, ERROR_EXAMPLES, RATE_LIMITED_EXAMPLE, SEARCH_EXAMPLE } from "../../../server/openapi/operations.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

let t: TestServer;
let doc: any;

beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
  const response = await fetch(`${t.url}/openapi/json`);
  expect(response.status).toBe(200);
  doc = await response.json();
});
afterAll(() => t.stop());

const SEARCH_ERRORS = ["400", "403", "429", "500"];

describe("GET /openapi/json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test("describes the REST routes, /mcp, the OAuth and operations endpoints, and hides the pages and assets", () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
      "/authorize",
      "/healthz",
      "/mcp",
      "/metrics",
      "/readyz",
      "/register",
      "/revoke",
      "/token",
      "/v1/cities",
      "/v1/feeds/{token}",
      "/v1/filters",
      "/v1/jobs/{id}",
      "/v1/jobs/{id}/similar",
      "/v1/match",
      "/v1/saved-searches",
      "/v1/saved-searches/{id}",
      "/v1/saved-searches/{id}/deliveries",
      "/v1/saved-searches/{id}/feed-token",
      "/v1/saved-searches/{id}/new",
      "/v1/search",
    ]);
    expect(Object.keys(doc.paths["/v1/search"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/mcp"])).toEqual(["post"]);
  });

  test("GET /v1/search lists every search parameter, q required", () => {
    const parameters = doc.paths["/v1/search"].get.parameters as { name: string; in: string; required: boolean }[];
    expect(parameters.map((p) => p.name).sort()).toEqual(Object.keys(SearchParametersSchema.shape).sort());
    expect(parameters.every((p) => p.in === "query")).toBe(true);
    expect(parameters.filter((p) => p.required).map((p) => p.name)).toEqual(["q"]);
    expect(parameters.find((p) => p.name === "detail")).toMatchObject({ schema: { type: "string", enum: ["summary", "full"] } });
  });

  test("POST /v1/search takes the parameters as a JSON body", () => {
    const body = doc.paths["/v1/search"].post.requestBody.content["application/json"];
    expect(body.schema).toEqual({ $ref: "#/components/schemas/SearchParameters" });
    expect(doc.components.schemas.SearchParameters.required).toEqual(["q"]);
    for (const { value } of Object.values(body.examples) as { value: unknown }[]) SearchParametersSchema.parse(value);
  });

  test.each([
    ["get", "/v1/search", ["200", ...SEARCH_ERRORS]],
    ["post", "/v1/search", ["200", ...SEARCH_ERRORS]],
    ["get", "/v1/cities", ["200", "403", "429", "500"]],
    ["get", "/v1/filters", ["200", "403", "429", "500"]],
    ["get", "/v1/jobs/{id}", ["200", "403", "404", "429", "500"]],
    ["get", "/v1/jobs/{id}/similar", ["200", "403", "404", "429", "500"]],
    ["post", "/v1/match", ["200", "400", "403", "413", "429", "500"]],
  ])("%s %s: x-api-key, a 200 with an example and the error bodies", (method, path, statuses) => {
    const operation = doc.paths[path][method];
    expect(operation.security).toEqual([{ ApiKey: [] }]);
    expect(Object.keys(operation.responses).sort()).toEqual(statuses);
    const json = (status: string) => operation.responses[status].content["application/json"];
    expect(Object.keys(json("200").examples).length).toBeGreaterThan(0);
    for (const status of ["400", "403", "500"].filter((s) => statuses.includes(s))) {
      expect(json(status).schema).toEqual({ $ref: "#/components/schemas/Error" });
      for (const { value } of Object.values(json(status).examples) as { value: any }[]) {
        expect(ErrorBodySchema.parse(value).error_code).toBeString();
      }
    }
    expect(json("429").schema).toEqual({ $ref: "#/components/schemas/RateLimited" });
    expect(operation.responses["429"].headers["retry-after"]).toBeDefined();
  });

  test("the error schemas are the spec's bodies (job-search-service.md §2.4, §7.1)", () => {
    const { Error: error, RateLimited: rateLimited } = doc.components.schemas;
    expect(Object.keys(error.properties).sort()).toEqual(["error", "error_code", "request_id"]);
    expect(error.required.sort()).toEqual(["error", "error_code", "request_id"]);
    expect(error.properties.error_code.enum).toEqual(expect.arrayContaining(["MISSING_QUERY", "INVALID_PARAMETER", "AUTH_INVALID_KEY", "INTERNAL_ERROR"]));
    expect(Object.keys(rateLimited.properties).sort()).toEqual(["error", "retry_after"]);
  });

  test("declares the x-api-key scheme and a Bearer scheme for /mcp", () => {
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
    expect(doc.paths["/mcp"].post.security).toEqual([{ BearerAuth: [] }, { ApiKey: [] }]);
  });
});

describe("the documented examples are true", () => {
  test("the 200 examples fit the shared schemas", () => {
    SearchResponseSchema.parse(SEARCH_EXAMPLE);
    CityCountsSchema.parse(CITIES_EXAMPLE);
    JobResponseSchema.parse(JOB_EXAMPLE);
    RateLimitedBodySchema.parse(RATE_LIMITED_EXAMPLE);
  });

  test("a live search response fits the documented schema", async () => {
    const response = await fetch(`${t.url}/v1/search?q=nurse&top_k=3&detail=full`, { headers: { "x-api-key": t.apiKey } });
    expect(response.status).toBe(200);
    const body = SearchResponseSchema.parse(await response.json());
    expect(body.results.length).toBe(3);
  });

  const post = (body: string, key = t.apiKey) =>
    fetch(`${t.url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body });
  const get = (query: string) => fetch(`${t.url}/v1/search?${query}`, { headers: { "x-api-key": t.apiKey } });

  test("the server reads every documented parameter (a wrong type is a 400 naming it)", async () => {
    type Property = { type?: string; enum?: string[]; anyOf?: Property[] };
    const properties = doc.components.schemas.SearchParameters.properties as Record<string, Property>;
    for (const [name, schema] of Object.entries(properties)) {
      if (name === "q") continue;
      // city and country: a string or a list of them.
      const text = schema.type === "string" || schema.anyOf?.some((option) => option.type === "string");
      const wrong = schema.enum ? "nope" : text ? 12345 : "nope";
      const response = await post(JSON.stringify({ q: "nurse", [name]: wrong }));
      const body = (await response.json()) as { error: string; error_code: string };
      expect({ name, status: response.status, code: body.error_code }).toEqual({ name, status: 400, code: "INVALID_PARAMETER" });
      expect(body.error.startsWith(`${name} `)).toBe(true);
    }
  });

  test.each([
    ["missingQuery", () => post("{}"), 400],
    ["badCountry", () => get("q=nurse&country=us"), 400],
    ["badOffset", () => get("q=nurse&offset=-1"), 400],
    ["malformedJson", () => post("{"), 400],
    ["invalidKey", () => post('{"q":"nurse"}', "nope"), 403],
  ] as const)("the server answers the %s example", async (name, call, status) => {
    const response = await call();
    expect(response.status).toBe(status);
    const body = (await response.json()) as Record<string, unknown>;
    const { request_id: _, ...example } = ERROR_EXAMPLES[name];
    expect({ error: body.error, error_code: body.error_code }).toEqual(example);
  });
});
