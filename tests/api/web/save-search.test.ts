import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { TestServer } from "../../support/helpers.ts";
import { openSearchPage, pageSteps } from "../../support/browser/search-page.ts";

/** Saving the search on screen from the page in real headless Chromium: a name, then its feed URL. */
const web = openSearchPage();
const { searchFor, waitForText, shot } = pageSteps(web);
let t: TestServer;
let page: Page;

beforeAll(async () => {
  ({ t, page } = web);
  await page.goto(`${t.url}/`);
  await page.locator("#api-key").waitFor({ state: "visible" });
  await page.fill("#api-key", t.apiKey);
  await page.press("#api-key", "Enter");
  await page.locator("#key-saved").waitFor({ state: "visible" });
});

describe("save this search", () => {
  test("is offered once results show; saves the words and filters and shows the feed URL", async () => {
    expect(await page.locator("#save-search").isHidden()).toBe(true);
    await page.fill("#city", "Berlin");
    await searchFor("registered nurse");
    await page.locator("#save-search").waitFor({ state: "visible" });
    expect(await page.inputValue("#save-name")).toBe("registered nurse");
    await page.fill("#save-name", "nurses in Berlin");
    await page.click("#save-button");
    await page.locator("#save-feed").waitFor({ state: "visible" });
    const feed = (await page.getAttribute("#save-feed", "href"))!;
    expect(feed).toStartWith(`${t.url}/v1/feeds/`);
    const response = await fetch(feed);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/atom+xml");
    const list = (await (await fetch(`${t.url}/v1/saved-searches`, { headers: { "x-api-key": t.apiKey } })).json()) as { saved_searches: Array<{ name: string; params: Record<string, unknown> }> };
    expect(list.saved_searches[0]).toMatchObject({ name: "nurses in Berlin", params: { q: "registered nurse", city: "Berlin" } });
    await shot("save-search");
    // The same name again: the page says why it was not saved.
    await page.click("#save-button");
    await waitForText("#save-result", /Not saved: .*exists/);
    expect(web.problems.filter((p) => !/409/.test(p))).toEqual([]);
    expect(web.external).toEqual([]);
  });
});
