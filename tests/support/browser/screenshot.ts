/**
 * Not a test: regenerates server/web/screenshot.png (the README's picture of the search page)
 * from the generated demo postings. Run: bun tests/support/browser/screenshot.ts
 */
import { join } from "node:path";
import { launchChromium } from "./browser.ts";
import { ROOT, startTestServer } from "../helpers.ts";

const t = await startTestServer({ env: { DEMO_DATA: "true" } });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(`${t.url}/`);
  await page.fill("#api-key", t.apiKey);
  await page.press("#api-key", "Enter");
  await page.fill("#q", "backend engineer, Python");
  await page.selectOption("#top_k", "10");
  await page.press("#q", "Enter");
  await page.waitForSelector("#results .card");
  await page.locator("#results .card .toggle-description").first().click();
  await page.locator("#results .card .description").first().waitFor({ state: "visible" });
  await page.screenshot({ path: join(ROOT, "server/web/screenshot.png") });
  console.log("wrote server/web/screenshot.png");
} finally {
  await browser.close();
  await t.stop();
}
