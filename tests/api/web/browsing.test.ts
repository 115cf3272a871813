import { beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { descriptionOf, openSearchPage, pageSteps, postings } from "../../support/browser/search-page.ts";

/**
 * Browsing on the search page in real headless Chromium, with the key saved: pages forward and back,
 * a description from the keyboard, a reload, a refused key, a rate limit, the docs page, forgetting the key.
 */
const web = openSearchPage();
const { cards, status, shot, searchFor, waitForText, waitForCount, focusedId, urlsOnPage } = pageSteps(web);
let t: TestServer;
let page: Page;
let context: BrowserContext;
const { external, origins, problems } = web;

beforeAll(async () => {
  ({ t, page, context } = web);
  await page.goto(`${t.url}/`);
  await page.locator("#api-key").waitFor({ state: "visible" });
  await page.fill("#api-key", t.apiKey);
  await page.press("#api-key", "Enter");
  await page.locator("#key-saved").waitFor({ state: "visible" });
});

describe("search page in Chromium", () => {
  test("pages forward and back with offset and top_k", async () => {
    await page.fill("#city", "");
    await page.selectOption("#top_k", "10");
    await searchFor("engineer");
    const first = await urlsOnPage();
    expect(first.length).toBe(10);
    await page.click("#next-page");
    await waitForText("#status", /\(11–20\)/);
    const second = await urlsOnPage();
    expect(second.length).toBe(10);
    expect(second.filter((url) => first.includes(url))).toEqual([]);
    expect(page.url()).toContain("offset=10");
    expect(await focusedId()).toBe("results-heading");
    expect(await page.locator("#page-label").textContent()).toBe("Page 2");
    await page.click("#prev-page");
    await waitForText("#status", /\(1–10\)/);
    expect(await urlsOnPage()).toEqual(first);
    await page.goBack(); // the address bar keeps each page
    await waitForText("#status", /\(11–20\)/);
    expect(await urlsOnPage()).toEqual(second);
  });

  test("opens a full description on demand, from the keyboard", async () => {
    const card = cards().filter({ has: page.locator(".title-link") }).first();
    const url = await card.locator(".title-link").getAttribute("href");
    const button = card.locator(".toggle-description");
    await button.focus();
    await page.keyboard.press("Enter");
    await card.locator(".description").waitFor({ state: "visible" });
    expect(await card.locator(".description").textContent()).toBe(descriptionOf.get(url!)!);
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    await shot("description");
    await page.keyboard.press("Enter");
    await card.locator(".description").waitFor({ state: "hidden" });
  });

  test("after a reload the key and the search are still there", async () => {
    await page.reload();
    await page.locator("#key-saved").waitFor({ state: "visible" });
    await waitForCount("#results .card", 10);
    expect(await page.inputValue("#q")).toBe("engineer");
  });

  test("a refused key gets a clear message and the key field", async () => {
    await page.click("#change-key");
    await page.fill("#api-key", "jsk_not_a_real_key");
    await page.press("#api-key", "Enter");
    await waitForText("#message", /The API key was refused/);
    expect(await focusedId()).toBe("api-key");
    await shot("refused-key");
    await page.fill("#api-key", t.apiKey);
    await page.press("#api-key", "Enter");
    await page.locator("#message").waitFor({ state: "hidden" });
    await waitForCount("#results .card", 10);
  });

  test("a rate limit gets a message saying how long to wait", async () => {
    const limited = await startTestServer({ records: postings.slice(0, 5), env: { RATE_LIMIT_PER_MINUTE: "3" } });
    try {
      origins.add(limited.url);
      const other = await context.newPage();
      await other.goto(`${limited.url}/?q=nurse`);
      await other.fill("#api-key", limited.apiKey);
      await other.press("#api-key", "Enter"); // GET /v1/cities, GET /v1/filters and the search: the three allowed
      await waitForText("#status", /results? \(/, other);
      await other.press("#q", "Enter");
      await waitForText("#message", /Too many requests for this key\. Wait \d+ seconds? and try again\./, other);
      await other.close();
    } finally {
      await limited.stop();
    }
  });

  test("the docs page renders the operations offline", async () => {
    // One block per operation the OpenAPI document declares.
    const document = (await (await fetch(`${t.url}/openapi/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item).filter((method) => ["get", "post", "put", "delete", "patch"].includes(method)));
    expect(operations.length).toBeGreaterThan(19);
    await page.goto(`${t.url}/docs`);
    await waitForCount(".opblock", operations.length);
    const paths = await page.locator(".opblock-summary-path").allTextContents();
    for (const path of ["/v1/search", "/v1/cities", "/v1/match", "/mcp"]) expect(paths.map((p) => p.replace(/\u200b/g, ""))).toContain(path);
    await page.locator("#operations-Search-postV1Search .opblock-summary").click();
    await waitForText("#operations-Search-postV1Search .responses-wrapper", /429/);
    // The key saved on the search page is filled in for "Try it out".
    await page.locator(".btn.authorize.locked").waitFor({ state: "visible" });
    await shot("docs");
  });

  test("forgetting the key removes it from the browser", async () => {
    await page.goto(`${t.url}/`);
    await page.click("#forget-key");
    await page.locator("#api-key").waitFor({ state: "visible" });
    expect(await page.evaluate(() => localStorage.getItem("jobsearch.apiKey"))).toBeNull();
  });

  test("nothing was fetched from another origin and nothing broke", () => {
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
