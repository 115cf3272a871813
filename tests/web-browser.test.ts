import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ARTIFACTS, CHROMIUM, launchChromium } from "./support/browser.ts";
import { fixturePostings } from "./support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "./support/helpers.ts";

/**
 * The search page and the docs page in real headless Chromium, against a real server with the
 * fixture postings, as a person uses them: key, search, filter, pages, a description, the docs.
 * Every request that leaves the server's origin is blocked and recorded (the pages must work offline).
 * Without Chromium these tests fail; they never skip.
 */

const HOSTILE = {
  id: "fx-hostile",
  job_title: `<img src=x onerror="window.__xss=1">Security Engineer <script>window.__xss=2</script>`,
  company_name: `<b>Evil</b> & "Co"`,
  city: "Berlin",
  country: "DE",
  publish_time: "2026-03-20 00:00:00",
  job_url: "javascript:window.__xss=3",
  job_tags: [`<i onmouseover="window.__xss=4">tag</i>`],
  data_source: "indeed",
  job_description: `<img src=x onerror="window.__xss=5"> Penetration testing and threat models.`,
};
const postings = [...fixturePostings(), HOSTILE];
const descriptionOf = new Map(postings.map((p) => [p.job_url, p.job_description]));

let t: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const external: string[] = [];
const origins = new Set<string>();
const problems: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ records: postings });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  origins.add(t.url);
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (origins.has(new URL(url).origin)) return route.continue();
    external.push(url);
    return route.abort();
  });
  page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    // A refused key or a rate limit is logged by Chromium as a failed resource; anything else is a problem.
    if (message.type() === "error" && !/Failed to load resource: the server responded with a status of (403|429)/.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const cards = () => page.locator("#results .card");
const status = () => page.locator("#status");
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `web-${name}.png`), fullPage: true });

async function searchFor(query: string) {
  await page.fill("#q", query);
  await page.press("#q", "Enter");
  await waitForText("#status", /results? \(|No postings|No more/);
}

/** Waits until the element's text matches (Playwright's own expect is not in playwright-core). */
async function waitForText(selector: string, pattern: RegExp, on: Page = page) {
  await on.waitForFunction(
    ([sel, source, flags]) => new RegExp(source!, flags).test(document.querySelector(sel!)?.textContent ?? ""),
    [selector, pattern.source, pattern.flags],
    { timeout: 20_000 },
  );
}

async function waitForCount(selector: string, count: number, on: Page = page) {
  await on.waitForFunction(([sel, n]) => document.querySelectorAll(sel as string).length === n, [selector, count] as const, { timeout: 20_000 });
}

const focusedId = () => page.evaluate(() => document.activeElement?.id);

/** Each card's link, or its title where it has none (the hostile posting). */
async function urlsOnPage(): Promise<string[]> {
  return cards().evaluateAll((items) => items.map((card) => card.querySelector<HTMLAnchorElement>(".title-link")?.href ?? card.querySelector("h3")!.textContent!));
}

describe("search page in Chromium", () => {
  test("Chromium is installed", () => {
    expect(existsSync(CHROMIUM)).toBe(true);
  });

  test("has labelled controls and landmarks", async () => {
    await page.goto(`${t.url}/`);
    const unlabelled = await page.$$eval("input:not([type=hidden]), select", (fields) =>
      fields.filter((f) => (f as HTMLInputElement).labels?.length === 0).map((f) => f.id));
    expect(unlabelled).toEqual([]);
    for (const selector of ["header", "main", "footer", "nav", "form[role=search]", "#status[aria-live=polite]"]) {
      expect(await page.locator(selector).count()).toBeGreaterThan(0);
    }
  });

  test("asks for the API key once and keeps it in localStorage", async () => {
    await page.locator("#api-key").waitFor({ state: "visible" });
    await page.fill("#api-key", t.apiKey);
    await page.press("#api-key", "Enter");
    await page.locator("#key-saved").waitFor({ state: "visible" });
    expect(await page.evaluate(() => localStorage.getItem("jobsearch.apiKey"))).toBe(t.apiKey);
    expect(await page.locator("#key-label").textContent()).not.toContain(t.apiKey.slice(-10));
    // The filters fill from GET /v1/cities.
    await waitForCount("#city-options option", 6);
    expect(await page.locator("#country option[value=DE]").textContent()).toContain("Germany");
  });

  test("searches and shows result cards", async () => {
    await searchFor("backend engineer python");
    expect(await cards().count()).toBe(20);
    const first = cards().filter({ hasText: "Senior Backend Engineer" }).first();
    for (const part of [".title-link", ".fact.date time", ".fact.score dd", ".fact.source dd"]) {
      expect(await first.locator(part).count()).toBe(1);
    }
    expect(await status().textContent()).toMatch(/^Best 20 results \(1–20\) for “backend engineer python”/);
    // The source list holds the sources of the data with their postings (GET /v1/filters), not a fixed pair.
    const sources = await page.locator("#source option").allTextContents();
    const count = (source: string) => postings.filter((p) => p.data_source === source).length;
    expect(sources).toEqual(expect.arrayContaining([`indeed (${count("indeed")})`, `linkedin (${count("linkedin")})`]));
    expect(page.url()).toContain("q=backend+engineer+python");
    await shot("search");
  });

  test("filters by city and shows posting text as text", async () => {
    await page.fill("#city", "Berlin");
    await searchFor("security engineer");
    const places = await cards().locator(".fact.place dd").allTextContents();
    expect(places.length).toBe(7);
    expect(new Set(places)).toEqual(new Set(["Berlin"]));
    const hostile = cards().filter({ hasText: "Security Engineer" });
    expect(await hostile.locator(".card-title").textContent()).toBe(HOSTILE.job_title);
    expect(await hostile.locator(".company").textContent()).toBe(HOSTILE.company_name);
    expect(await hostile.locator("a.title-link").count()).toBe(0); // a javascript: URL is not made a link
    expect(await page.locator("#results img, #results script, #results b, #results i").count()).toBe(0);
    await hostile.locator(".toggle-description").click();
    await hostile.locator(".description").waitFor({ state: "visible" });
    expect(await hostile.locator(".description").textContent()).toBe(HOSTILE.job_description);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    await shot("city");
  });

  test("filters by seniority and employment type from the page, and keeps them in the address", async () => {
    try {
      await page.fill("#city", "");
      await page.selectOption("#seniority", "senior");
      await searchFor("backend engineer");
      const titles = await cards().locator(".card-title").allTextContents();
      expect(titles.length).toBeGreaterThan(0);
      expect(titles.every((title) => title.startsWith("Senior"))).toBe(true);
      expect(page.url()).toContain("seniority=senior");
      // The fixture's senior postings are none of them full-time: the two filters together leave nothing.
      await page.selectOption("#employment_type", "FULL_TIME");
      await searchFor("backend engineer");
      expect(await cards().count()).toBe(0);
      expect(page.url()).toContain("employment_type=FULL_TIME");
    } finally {
      await page.selectOption("#seniority", "");
      await page.selectOption("#employment_type", "");
    }
  });

  test("says what it understood of the words, and searches the exact words on request", async () => {
    await searchFor("frontend developer in Berlin");
    await waitForText("#understood", /Showing jobs in Berlin for “frontend developer”/);
    expect(await page.locator("#understood").isVisible()).toBe(true);
    expect(new Set(await cards().locator(".fact.place dd").allTextContents())).toEqual(new Set(["Berlin"]));
    await page.click("#exact-words");
    await page.waitForFunction(() => location.search.includes("understand=false"), undefined, { timeout: 20_000 });
    await page.waitForFunction(() => (document.getElementById("understood") as HTMLElement).hidden, undefined, { timeout: 20_000 });
    expect(new Set(await cards().locator(".fact.place dd").allTextContents()).size).toBeGreaterThan(1);
    await shot("understood");
  });

  test("facet counts beside the results filter when chosen; each card leads to its posting and to similar ones", async () => {
    await searchFor("registered nurse");
    const cityFacets = page.locator("#facets section", { hasText: "City" }).locator("button.facet");
    expect(await cityFacets.count()).toBeGreaterThan(1);
    const first = (await cityFacets.first().textContent())!;
    const [, city] = /^(.*) \((\d+)\)$/.exec(first)!;
    await cityFacets.first().click();
    await page.waitForFunction((name) => location.search.includes(`city=${encodeURIComponent(name!)}`), city, { timeout: 20_000 });
    await waitForText("#status", /results? \(/);
    const places = await cards().locator(".fact.place dd").allTextContents();
    // The counts are of plausible matches (score 0.5 or more); the page lists every match.
    expect(new Set(places)).toEqual(new Set([city!]));
    await shot("facets");

    await cards().first().locator("a.similar-link").click();
    await waitForText("#status", /similar to the one chosen/);
    expect(page.url()).toContain("similar=");
    expect(await cards().count()).toBeGreaterThan(0);
    await cards().first().locator("a.details-link").click();
    await waitForText("#status", /One posting/);
    expect(page.url()).toContain("job=");
    expect((await page.locator("#results .job .description").textContent())!.length).toBeGreaterThan(20);
    await shot("job");
    await page.goBack();
    await waitForText("#status", /similar to the one chosen/);
    await page.fill("#city", "");
  });

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
    await page.goto(`${t.url}/docs`);
    await waitForCount(".opblock", 18);
    const paths = await page.locator(".opblock-summary-path").allTextContents();
    for (const path of ["/v1/search", "/v1/cities", "/mcp"]) expect(paths.map((p) => p.replace(/\u200b/g, ""))).toContain(path);
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
