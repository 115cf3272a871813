import { expect, test } from "bun:test";
import { createLogger } from "../../../server/log.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { closeTableUnder, startTestServer } from "../../support/helpers.ts";

test("an unexpected failure is logged with its stack and answered 500 INTERNAL_ERROR", async () => {
  const lines: string[] = [];
  const t = await startTestServer({ records: fixturePostings().slice(0, 3), log: createLogger("info", (line) => lines.push(line)) });
  await closeTableUnder(t.server); // every search now fails inside LanceDB
  const response = await fetch(`${t.url}/v1/search?q=nurse`, { headers: { "x-api-key": t.apiKey } });
  expect(response.status).toBe(500);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toEqual({ request_id: response.headers.get("x-request-id")!, error: "Internal server error", error_code: "INTERNAL_ERROR" });
  const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === "unexpected error");
  expect(logged).toMatchObject({ level: "error", request_id: body.request_id, route: "/v1/search" });
  expect(logged.error.stack).toBeString();
  await t.stop().catch(() => {});
});
