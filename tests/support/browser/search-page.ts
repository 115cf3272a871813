/**
 * The search page in real headless Chromium against a real server with the fixture postings and one
 * posting made of markup, as a person uses it. Every request that leaves the server's origin is
 * blocked and recorded (the pages must work offline), and so is every page error. Without Chromium
 * the tests fail; they never skip.
 */
import { afterAll, beforeAll } from "bun:test";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ARTIFACTS, sharedChromium } from "./browser.ts";
import { fixturePostings } from "../fixtures/postings.ts";
import { startTestServer, type TestServer } from "../helpers.ts";

export const HOSTILE = {
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
export const postings = [...fixturePostings(), HOSTILE];
export const descriptionOf = new Map(postings.map((p) => [p.job_url, p.job_description]));

export interface SearchPage {
  t: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Requests that left the server's origin (blocked). */
  external: string[];
  /** The origins the page may reach: the server's, and any a test adds. */
  origins: Set<string>;
  /** Page errors and console errors other than a refused key or a rate limit. */
  problems: string[];
}

/** A server and a Chromium page (a context of the run's Chromium) for the file's tests: started before them, closed after. */
export function openSearchPage(): SearchPage {
  const web = { external: [] as string[], origins: new Set<string>(), problems: [] as string[] } as SearchPage;
  beforeAll(async () => {
    web.t = await startTestServer({ records: postings });
    web.browser = await sharedChromium();
    const context = (web.context = await web.browser.newContext({ viewport: { width: 1100, height: 900 } }));
    web.origins.add(web.t.url);
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (web.origins.has(new URL(url).origin)) return route.continue();
      web.external.push(url);
      return route.abort();
    });
    const page = (web.page = await context.newPage());
    page.on("pageerror", (error) => web.problems.push(`page error: ${error.message}`));
    page.on("console", (message) => {
      // A refused key or a rate limit is logged by Chromium as a failed resource; anything else is a problem.
      if (message.type() === "error" && !/Failed to load resource: the server responded with a status of (403|429)/.test(message.text())) {
        web.problems.push(`console: ${message.text()}`);
      }
    });
  });
  afterAll(async () => {
    await web.context?.close();
    await web.t?.stop();
  });
  return web;
}

/** What the tests do and wait for on `web.page` (Playwright's own expect is not in playwright-core). */
export function pageSteps(web: SearchPage) {
  const cards = () => web.page.locator("#results .card");
  const status = () => web.page.locator("#status");
  const shot = (name: string) => web.page.screenshot({ path: join(ARTIFACTS, `web-${name}.png`), fullPage: true });

  async function searchFor(query: string) {
    await web.page.fill("#q", query);
    await web.page.press("#q", "Enter");
    await waitForText("#status", /results? \(|No postings|No more/);
  }

  /** Waits until the element's text matches. */
  async function waitForText(selector: string, pattern: RegExp, on: Page = web.page) {
    await on.waitForFunction(
      ([sel, source, flags]) => new RegExp(source!, flags).test(document.querySelector(sel!)?.textContent ?? ""),
      [selector, pattern.source, pattern.flags],
      { timeout: 20_000 },
    );
  }

  async function waitForCount(selector: string, count: number, on: Page = web.page) {
    await on.waitForFunction(([sel, n]) => document.querySelectorAll(sel as string).length === n, [selector, count] as const, { timeout: 20_000 });
  }

  const focusedId = () => web.page.evaluate(() => document.activeElement?.id);

  /** Each card's link, or its title where it has none (the hostile posting). */
  async function urlsOnPage(): Promise<string[]> {
    return cards().evaluateAll((items) => items.map((card) => card.querySelector<HTMLAnchorElement>(".title-link")?.href ?? card.querySelector("h3")!.textContent!));
  }

  return { cards, status, shot, searchFor, waitForText, waitForCount, focusedId, urlsOnPage };
}
