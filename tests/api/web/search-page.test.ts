import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import type { Page } from "playwright-core";
import { join } from "node:path";
import { ARTIFACTS, CHROMIUM } from "../../support/browser/browser.ts";
import { postSearch, type TestServer } from "../../support/helpers.ts";
import { HOSTILE, openSearchPage, pageSteps, postings } from "../../support/browser/search-page.ts";

/**
 * The search page in real headless Chromium, as a person uses it: the key, a search, filters by city,
 * seniority and employment type, what was understood, facets, a posting and similar ones.
 */
const web = openSearchPage();
const { cards, status, shot, searchFor, waitForText, waitForCount } = pageSteps(web);
let t: TestServer;
let page: Page;
const { external, problems } = web;

beforeAll(() => {
  ({ t, page } = web);
});

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
    expect(await status().textContent()).toMatch(/^20 results \(1–20\), best first, for “backend engineer python” in \d+ ms\. \d+ close match(es)? \(score 0\.5 or more\) in all, \d+ on this page\.$/);
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
      // Seniority and employment type are among the folded filters.
      expect(await page.locator("#seniority").isVisible()).toBe(false);
      await page.click("#more-filters summary");
      await page.selectOption("#seniority", "senior");
      expect(await page.locator("#more-filters summary").textContent()).toBe("More filters (1 set)");
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


  test("at 1280×800: the first result in view, the order said and switchable, the counts agree with the cards, every hint shown", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      await page.goto(`${t.url}/`);
      const hintsOnPage = () => page.locator("#hints li").allTextContents();
      const asked = { top_k: 20, sort: "relevance", facets: ["seniority", "employment_type", "remote", "city", "tags"] };
      for (const [q, filters] of [["airline pilot", {}], ["python developer, ideally remote", {}], ["nurse", { city: "berlin" }]] as const) {
        await page.fill("#city", (filters as { city?: string }).city ?? "");
        await searchFor(q);
        const api = (await postSearch<{ query: { hints: string[] }; total_matches: number; results: Array<{ score: number }> }>(t, { q, ...asked, ...filters })).body;
        expect(api.query.hints.length).toBeGreaterThan(0);
        expect(await hintsOnPage()).toEqual(api.query.hints);
        expect(await page.locator("#hints").isVisible()).toBe(true);
        if (q === "airline pilot") {
          expect(api.query.hints[0]).toStartWith("no close match");
          const close = api.results.filter((r) => r.score >= 0.5).length;
          expect(await status().textContent()).toMatch(new RegExp(`, best first, for “airline pilot” in \\d+ ms\\. ${api.total_matches} close match(es)? \\(score 0\\.5 or more\\) in all, ${close} on this page\\.$`));
          // Seen without scrolling, below the form and the hint.
          const seen = await cards().first().evaluate((card) => ({ scrollY: window.scrollY, bottom: card.querySelector(".card-title")!.getBoundingClientRect().bottom, height: window.innerHeight }));
          expect(seen.scrollY).toBe(0);
          expect(seen.bottom).toBeLessThan(seen.height);
          await page.screenshot({ path: join(ARTIFACTS, "web-search-viewport.png") });
        }
      }
      await page.fill("#city", "");
      await searchFor("backend engineer python");
      expect(await hintsOnPage()).toEqual([]);
      expect(await page.locator("#hints").isVisible()).toBe(false);
      const first = await cards().first().evaluate((card) => card.querySelector(".card-title")!.getBoundingClientRect().bottom);
      expect(first).toBeLessThan(800);
      // Best first by default; the spec's date order on request, said in the status line.
      const scores = (await cards().locator(".fact.score dd").allTextContents()).map(Number);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      await page.selectOption("#sort", "date");
      await searchFor("backend engineer python");
      expect(await status().textContent()).toMatch(/^20 results \(1–20\), newest first, for/);
      expect(page.url()).toContain("sort=date");
      const dates = await cards().locator(".fact.date time").evaluateAll((times) => times.map((time) => time.getAttribute("datetime")!));
      expect(dates).toEqual([...dates].sort().reverse());
    } finally {
      await page.selectOption("#sort", "relevance");
      await page.setViewportSize({ width: 1100, height: 900 });
    }
  });

  test("nothing was fetched from another origin and nothing broke", () => {
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
  });
});
