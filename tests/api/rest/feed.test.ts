import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseFeed } from "@rowanmanning/feed-parser";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { postingUrn } from "../../../server/saved/feed.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

/**
 * A saved search's Atom feed, read as a feed reader reads it (@rowanmanning/feed-parser, a real Atom
 * parser): no key, the new matching postings as entries with stable URNs, text escaped, and the URL
 * revoked by rotating its token or deleting the saved search.
 */

let t: TestServer;
let saved: { id: string; feed_url: string };
const HOSTILE = `Backend Engineer <script>alert("x")</script> & Co's ]]> \u0001`;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings() });
  const response = await fetch(`${t.url}/v1/saved-searches`, {
    method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ name: "backend <berlin> & more", q: "backend engineer", city: "Berlin" }),
  });
  saved = (await response.json()) as typeof saved;
  const base = fixturePostings()[0]!;
  await ingestRecords(t.server, [
    { ref: "a", value: { ...base, id: "feed-1", job_url: "https://jobs.example.com/feed/1?a=1&b=2", job_title: HOSTILE, company_name: "Feed Co" } },
    { ref: "b", value: { ...base, id: "feed 2/ü", job_url: "https://jobs.example.com/feed/2", job_title: "Backend Engineer", company_name: "Other Co", city: "London", country: "GB" } },
  ]);
});
afterAll(() => t.stop());

describe("GET /v1/feeds/{token}", () => {
  test("is Atom 1.0 without a key: the new matches as entries with a stable URN, title, link, updated and summary", async () => {
    const response = await fetch(saved.feed_url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const xml = await response.text();
    const feed = parseFeed(xml);
    expect(feed.meta).toMatchObject({ type: "atom", version: "1.0" });
    expect(feed.title).toBe("New jobs: backend <berlin> & more");
    expect(feed.self).toBe(saved.feed_url);
    expect(feed.updated).toBeInstanceOf(Date);
    expect(feed.items).toHaveLength(1);
    const [entry] = feed.items;
    expect(entry!.id).toBe(postingUrn("feed-1"));
    expect(entry!.title).toStartWith(`Backend Engineer <script>alert("x")</script> & Co's ]]>`);
    expect(entry!.url).toBe("https://jobs.example.com/feed/1?a=1&b=2");
    expect(entry!.updated).toBeInstanceOf(Date);
    expect(entry!.description).toContain("Feed Co");
    expect(xml).not.toContain("\u0001");
    // Reading the feed moves no cursor: the check still finds the posting new.
    const check = await fetch(`${t.url}/v1/saved-searches/${saved.id}/new`, { headers: { "x-api-key": t.apiKey } });
    expect(((await check.json()) as { results: Array<{ id: string }> }).results.map((r) => r.id)).toEqual(["feed-1"]);
    expect((await fetch(saved.feed_url)).status).toBe(200);
  });

  test("a URN is stable and names any id", () => {
    expect(postingUrn("feed 2/ü")).toBe("urn:jobsearch:job:feed%202%2F%C3%BC");
  });

  test("rotating the token revokes the old URL; deleting the saved search revokes the new one", async () => {
    const rotated = await fetch(`${t.url}/v1/saved-searches/${saved.id}/feed-token`, { method: "POST", headers: { "x-api-key": t.apiKey } });
    const { feed_url } = (await rotated.json()) as { feed_url: string };
    expect(feed_url).not.toBe(saved.feed_url);
    const gone = await fetch(saved.feed_url);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error_code: "NOT_FOUND" });
    expect((await fetch(feed_url)).status).toBe(200);
    await fetch(`${t.url}/v1/saved-searches/${saved.id}`, { method: "DELETE", headers: { "x-api-key": t.apiKey } });
    expect((await fetch(feed_url)).status).toBe(404);
  });
});
