import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

/** city and country take a list beside the spec's single value: POST arrays, GET the parameter repeated. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const postings = fixturePostings();
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ records: postings });
});
afterAll(() => t.stop());

const count = (predicate: (p: (typeof postings)[number]) => boolean) => postings.filter(predicate).length;
const ids = (results: { job_url: string }[]) => results.map((r) => r.job_url);
const get = (query: string) => fetch(`${t.url}/v1/search?${query}`, { headers: { "x-api-key": t.apiKey } });
const post = (body: unknown) => fetch(`${t.url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": t.apiKey }, body: JSON.stringify(body) });

async function ok(response: Response) {
  expect(response.status).toBe(200);
  return (await response.json()) as { total: number; results: any[]; query: { applied_filters: Record<string, unknown> } };
}

async function expectError(response: Response, status: number, code: string, message: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toEqual({ request_id: expect.stringMatching(UUID), error: message, error_code: code });
}

describe("list filters", () => {
  test("city and country take a list (POST arrays, GET repeated): any of them; one value is exact as before", async () => {
    const either = (p: (typeof postings)[number]) => p.city === "Berlin" || p.city === "London";
    const posted = await ok(await post({ q: "engineer", city: ["Berlin", "London"], top_k: 100 }));
    expect(posted.total).toBe(count(either));
    expect(new Set(posted.results.map((r) => r.city))).toEqual(new Set(["Berlin", "London"]));
    const got = await ok(await get("q=engineer&city=Berlin&city=London&top_k=100"));
    expect(ids(got.results).sort()).toEqual(ids(posted.results).sort());
    const countries = await ok(await get("q=engineer&country=DE&country=CH&top_k=100"));
    expect(countries.total).toBe(count((p) => p.country === "DE" || p.country === "CH"));
    expect((await ok(await post({ q: "engineer", city: ["Berlin"], top_k: 100 }))).total).toBe(count((p) => p.city === "Berlin"));
    // One value, as the spec has it: exact, and never split ("Berlin,London" is one absent city).
    expect((await ok(await get("q=engineer&city=Berlin"))).total).toBe(count((p) => p.city === "Berlin"));
    expect((await ok(await get("q=engineer&city=Berlin,London"))).total).toBe(0);
  });

  test("each value of a list is checked as a single one is; other parameters still may not repeat", async () => {
    await expectError(await post({ q: "x", country: ["DE", "de"] }), 400, "INVALID_PARAMETER", "country must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US");
    await expectError(await post({ q: "x", city: ["Berlin", 7] }), 400, "INVALID_PARAMETER", "city must be a string or an array of strings");
    await expectError(await post({ q: "x", city: 7 }), 400, "INVALID_PARAMETER", "city must be a string");
    await expectError(await get("q=x&country=DE&country=d"), 400, "INVALID_PARAMETER", "country must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US");
    await expectError(await get("q=x&source=a&source=b"), 400, "INVALID_PARAMETER", "source must be given once");
  });
});
