import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { ROOT } from "../helpers.ts";
import { whenRunEnds } from "../stores.ts";

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it). Playwright cannot download one here. */
export const CHROMIUM = "/usr/bin/chromium";
export const ARTIFACTS = join(ROOT, "tests/artifacts");

/** Headless Chromium as root, kept from reaching the internet on its own (update checks, sync, QUIC). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with "apt-get install -y chromium" (npm test does as root)`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * One Chromium for the run's test files, launched by the first that asks (a launch and its first page
 * take ~2.5 s); each file opens a context of its own, as isolated as a browser of its own.
 */
export function sharedChromium(): Promise<Browser> {
  if (shared === undefined) {
    const launched = (shared = launchChromium());
    whenRunEnds(async () => {
      shared = undefined;
      await (await launched).close();
    });
  }
  return shared;
}

// --- internal ---

let shared: Promise<Browser> | undefined;
