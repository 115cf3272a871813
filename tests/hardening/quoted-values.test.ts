import { afterAll, beforeAll, expect, test } from "bun:test";
import { QUOTED_VALUE_MAX, quoteValue } from "../../shared/errors.ts";
import { fixturePostings } from "../support/fixtures/postings.ts";
import { connectMcp, startTestServer, type TestServer } from "../support/helpers.ts";

/** Error messages repeat at most QUOTED_VALUE_MAX characters of a caller's value (a 15,000-character id made a 404 as long). */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
}, 120_000);
afterAll(() => t.stop());

const longId = "x".repeat(15_000);
const expected = `No posting has the id "${"x".repeat(QUOTED_VALUE_MAX)}…" (15000 characters)`;

test.each([
  ["abc", '"abc"'],
  ["a\"b\u0000", '"a\\"b\\u0000"'],
  ["y".repeat(QUOTED_VALUE_MAX), `"${"y".repeat(QUOTED_VALUE_MAX)}"`],
  [`${"z".repeat(QUOTED_VALUE_MAX - 1)}😀tail`, `"${"z".repeat(QUOTED_VALUE_MAX - 1)}…" (205 characters)`],
])("quoteValue quotes a value, cut at 200 characters and never inside a surrogate pair (case %#)", (value, quoted) => {
  expect(quoteValue(value)).toBe(quoted);
});

test("REST: a 404 for a 15,000-character id quotes its first 200 characters", async () => {
  for (const path of [`/v1/jobs/${longId}`, `/v1/jobs/${longId}/similar`]) {
    const response = await fetch(`${t.url}${path}`, { headers: { "x-api-key": t.apiKey } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toBe(expected);
  }
});

test("REST: an unknown place and a bad list value are quoted as short", async () => {
  const post = (body: object) => fetch(`${t.url}/v1/search`, { method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify(body) });
  const near = (await (await post({ q: "nurse", near: "n".repeat(256) })).json()) as { error: string };
  expect(near.error).toStartWith(`near: no place called "${"n".repeat(QUOTED_VALUE_MAX)}…" (256 characters) is known`);
  const seniority = (await (await post({ q: "nurse", seniority: ["s".repeat(256)] })).json()) as { error: string };
  expect(seniority.error).toEndWith(`(not "${"s".repeat(QUOTED_VALUE_MAX)}…" (256 characters))`);
  const repeated = await fetch(`${t.url}/v1/search?q=nurse&${"k".repeat(5000)}=1&${"k".repeat(5000)}=2`, { headers: { "x-api-key": t.apiKey } });
  expect(((await repeated.json()) as { error: string }).error).toBe(`"${"k".repeat(QUOTED_VALUE_MAX)}…" (5000 characters) must be given once`);
});

test("MCP: get_job and find_similar_jobs with a 15,000-character id say the same, as short", async () => {
  const client = await connectMcp(t.url, t.apiKey);
  try {
    for (const name of ["get_job", "find_similar_jobs"]) {
      const result = (await client.callTool({ name, arguments: { id: longId } })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toBe(expected);
    }
    const unknown = (await client.callTool({ name: "t".repeat(5000), arguments: {} })) as { content: Array<{ text: string }> };
    expect(unknown.content[0]!.text).toBe(`MCP error -32602: Tool ${"t".repeat(QUOTED_VALUE_MAX)}… not found`);
  } finally {
    await client.close();
  }
});
