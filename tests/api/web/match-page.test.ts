import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { PROFILE_MAX_CHARS } from "../../../shared/match.ts";
import { ARTIFACTS } from "../../support/browser/browser.ts";
import type { TestServer } from "../../support/helpers.ts";
import { HOSTILE, openSearchPage, pageSteps } from "../../support/browser/search-page.ts";
import { twoPageCv } from "../../support/fixtures/cv.ts";

/**
 * Matching a résumé on the page (?match) in real headless Chromium at 1280×800, against a real server
 * with the fixture postings: a profile pasted in, cards best first with matched and missing skills and
 * reasons, what was read of it, a too-long profile refused before it is sent, errors shown as the
 * search shows them, posting text kept as text, and the profile never in the address or in storage.
 */
const MARKER = "Quorblefax";
const PROFILE = [
  `# Zyxwvut ${MARKER}`,
  "Location: Berlin",
  "Senior Backend Engineer with 9 years of Python and PostgreSQL; APIs and distributed systems.",
  "Previously: Data Scientist (machine learning, SQL).",
].join("\n");
/** About two pages, in London: a job the fixture postings do not hold. */
const TWO_PAGES = twoPageCv("London, United Kingdom");
const VIEWPORT = { width: 1280, height: 800 };

const web = openSearchPage();
const { cards, shot, waitForText, waitForCount } = pageSteps(web);
let t: TestServer;
let page: Page;
let context: BrowserContext;
const { external, problems } = web;
/** The bodies of the page's requests to POST /v1/match. */
const sent: string[] = [];

beforeAll(async () => {
  ({ t, page, context } = web);
  await page.setViewportSize(VIEWPORT);
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/v1/match") sent.push(`${request.method()} ${request.postData()}`);
  });
  await page.goto(`${t.url}/`);
  await page.fill("#api-key", t.apiKey);
  await page.press("#api-key", "Enter");
  await page.locator("#key-saved").waitFor({ state: "visible" });
});

async function matchProfile(profile: string) {
  await page.fill("#profile", profile);
  await page.click("#match-button");
  await waitForText("#status", /matche?s? for your résumé|No postings match|did not run/);
}

const skillsOf = (card: ReturnType<typeof cards>, kind: "matched" | "missing") => card.locator(`.match .${kind} li`).allTextContents();

describe("matching a résumé on the page", () => {
  test("the search page links to the match view: a labelled text area with its limit, the search's filters and a button", async () => {
    await page.click("#match-link");
    await page.locator("#match-form").waitFor({ state: "visible" });
    expect(new URL(page.url()).search).toBe("?match");
    expect(await page.locator("#search-form").isVisible()).toBe(false);
    expect(await page.locator("#match-link").getAttribute("aria-current")).toBe("page");
    expect(await page.locator("#profile-count").textContent()).toBe(`0 / ${PROFILE_MAX_CHARS.toLocaleString("en-US")} characters`);
    for (const filter of ["#city", "#country", "#seniority", "#remote", "#tags", "#near", "#sort", "#top_k"]) {
      expect(await page.locator(`#match-form ${filter}`).count()).toBe(1);
    }
    const unlabelled = await page.$$eval("#match-form textarea, #match-form input, #match-form select", (fields) =>
      fields.filter((f) => (f as HTMLInputElement).labels?.length === 0).map((f) => f.id));
    expect(unlabelled).toEqual([]);
  });

  test("a pasted profile gives cards best first with matched and missing skills and reasons, the first visible at 1280×800", async () => {
    await matchProfile(PROFILE);
    await waitForText("#status", /^Best \d+ matches for your résumé in \d+ ms\.$/);
    const first = cards().first();
    expect(await first.locator(".card-title").textContent()).toBe("Senior Backend Engineer");
    expect(await skillsOf(first, "matched")).toEqual(expect.arrayContaining(["Python", "PostgreSQL"]));
    expect(await first.locator(".match .reasons").textContent()).toContain("title: backend developer");
    // Where the profile says the person is ranks first, it does not filter; the scores come best first.
    const places = await cards().locator(".fact.place dd").allTextContents();
    expect(places[0]).toBe("Berlin");
    expect(new Set(places).size).toBeGreaterThan(1);
    const scores = (await cards().locator(".fact.score dd").allTextContents()).map(Number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const frontend = cards().filter({ hasText: "Frontend Developer" }).first();
    expect((await skillsOf(frontend, "missing")).map((skill) => skill.toLowerCase())).toEqual(expect.arrayContaining(["react", "typescript"]));
    // What was read, and the hints.
    const read = (await page.locator("#read-facts").textContent())!;
    for (const part of ["backend developer", "senior, 9 years", "python", "postgresql", "Ranked near", "city Berlin"]) expect(read).toContain(part);
    expect(await page.locator("#match-hints li").allTextContents()).toContain('seniority "senior" ranks the results; it does not filter them');
    // Seen without scrolling.
    const seen = await first.evaluate((card) => ({ scrollY: window.scrollY, bottom: card.querySelector(".card-title")!.getBoundingClientRect().bottom, height: window.innerHeight }));
    expect(seen.scrollY).toBe(0);
    expect(seen.bottom).toBeLessThan(seen.height);
    await page.screenshot({ path: join(ARTIFACTS, "web-match-viewport.png") });
    await shot("match");
  });

  test("the profile went in a POST body only: never in the address, the title or storage", async () => {
    expect(sent.length).toBe(1);
    expect(sent[0]).toStartWith("POST ");
    expect(JSON.parse(sent[0]!.slice(5)).profile).toBe(PROFILE);
    expect(page.url()).toBe(`${t.url}/?match`);
    const kept = await page.evaluate(() => ({
      local: Object.keys(localStorage),
      session: sessionStorage.length,
      title: document.title,
      history: history.state,
    }));
    expect(kept).toEqual({ local: ["jobsearch.apiKey"], session: 0, title: "Match my résumé – Job search", history: null });
  });

  test("a posting's details and back show the matches again; a reload forgets the profile", async () => {
    await cards().first().locator("a.details-link").click();
    await waitForText("#status", /One posting/);
    expect(await page.locator("#profile-read").isVisible()).toBe(false);
    await page.goBack();
    await waitForText("#status", /^Best \d+ matches/);
    expect(await cards().first().locator(".match .matched li").count()).toBeGreaterThan(0);
    expect(await page.inputValue("#profile")).toBe(PROFILE);
    await page.reload();
    await page.locator("#match-form").waitFor({ state: "visible" });
    expect(await page.inputValue("#profile")).toBe("");
    expect(await cards().count()).toBe(0);
  });

  test("a two-page CV: what was read of it, its best match first and still in view at 1280×800", async () => {
    await matchProfile(TWO_PAGES);
    // The job this platform engineer held before (backend, Python and PostgreSQL) matches, first where they are (London).
    await waitForText("#status", /^Best \d+ matches/);
    expect(await cards().first().locator(".card-title").textContent()).toContain("Senior Backend Engineer");
    expect(await cards().first().locator(".fact.place dd").textContent()).toBe("London");
    const read = (await page.locator("#read-facts").textContent())!;
    for (const part of ["platform engineer", "lead, 11 years", "aws, grafana", "capacity planning and 7 more", "English, French", "city London"]) expect(read).toContain(part);
    const seen = await cards().first().evaluate((card) => ({ scrollY: window.scrollY, bottom: card.querySelector(".card-title")!.getBoundingClientRect().bottom, height: window.innerHeight }));
    expect(seen.scrollY).toBe(0);
    expect(seen.bottom).toBeLessThan(seen.height);
    await page.screenshot({ path: join(ARTIFACTS, "web-match-two-pages.png") });
  });

  test("a preference read from the profile is shown as one, apart from where the person is", async () => {
    await matchProfile("Senior Backend Engineer: Python and PostgreSQL.\nIdeally London.");
    await waitForText("#status", /matches for your résumé/);
    const read = (await page.locator("#read-facts").textContent())!;
    expect(read).toContain("Preferredcity London");
    expect(read).not.toContain("Ranked near");
  });

  test("a profile whose job no posting holds shows the \"no close match\" hint", async () => {
    await matchProfile("Pastry chef in London: eight years of laminated doughs, plated desserts and chocolate work.");
    await waitForText("#status", /matches for your résumé/);
    expect((await page.locator("#match-hints li.warning").textContent())!).toStartWith("no close match");
  });

  test("a profile over the limit is refused on the page, and never sent", async () => {
    const before = sent.length;
    await page.fill("#profile", "x".repeat(PROFILE_MAX_CHARS + 1));
    await waitForText("#profile-count", /: 1 too many$/);
    expect(await page.locator("#profile").getAttribute("aria-invalid")).toBe("true");
    await page.click("#match-button");
    await waitForText("#message", /^The résumé is 20,001 characters long; at most 20,000 are read\. Shorten it and try again\.$/);
    expect(sent.length).toBe(before);
    await shot("match-too-long");
    await page.fill("#profile", "x".repeat(PROFILE_MAX_CHARS));
    await waitForText("#profile-count", /^20,000 \/ 20,000 characters$/);
    expect(await page.locator("#profile").getAttribute("aria-invalid")).toBeNull();
    await page.click("#clear-profile");
    await waitForText("#profile-count", /^0 \//);
  });

  test("a refused request and a lost connection are shown as the search shows them", async () => {
    await page.locator("#match-filters summary").click();
    await page.fill("#near", "Qwxzplk Nowhere");
    expect(await page.locator("#match-filters summary").textContent()).toBe("Filters (1 set)");
    await matchProfile(PROFILE);
    await waitForText("#message", /^The search could not run: .*Qwxzplk Nowhere/);
    await shot("match-refused");
    expect(await page.locator("#status").textContent()).toBe("The match did not run.");
    expect(await cards().count()).toBe(0);
    await page.fill("#near", "");
    await context.setOffline(true);
    try {
      await matchProfile(PROFILE);
      await waitForText("#message", /^Cannot reach the service\./);
    } finally {
      await context.setOffline(false);
    }
  });

  test("the form's filters apply, and posting text on a match card stays text", async () => {
    await page.fill("#city", "Berlin");
    await page.fill("#profile", "Security engineer: penetration testing, threat models, network security.");
    await page.press("#profile", "Control+Enter");
    await waitForText("#status", /^Best 7 matches/);
    await waitForCount("#results .card", 7);
    const hostile = cards().filter({ hasText: "Security Engineer" });
    expect(await hostile.locator(".card-title").textContent()).toBe(HOSTILE.job_title);
    expect(await hostile.locator(".company").textContent()).toBe(HOSTILE.company_name);
    expect(await hostile.locator("a.title-link").count()).toBe(0);
    expect(await page.locator("#results img, #results script, #results b, #results i").count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    await page.fill("#city", "");
  });

  test("nothing was fetched from another origin and nothing broke", () => {
    expect(external).toEqual([]);
    // The refused request (400) and the lost connection are the two the tests caused.
    expect(problems.filter((p) => !/status of 400|ERR_INTERNET_DISCONNECTED/.test(p))).toEqual([]);
  });
});
