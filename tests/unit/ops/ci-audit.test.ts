import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "../../support/helpers.ts";

/*
 * .ci/audit against a stand-in npm registry on a local port (no network): it answers the bulk
 * advisory endpoint as the scenario says and serves a packument for zod (a dependency in bun.lock)
 * in which the scenario decides whether a fixed version exists.
 */

type Scenario = "clean" | "fixable-high" | "fixable-moderate" | "unfixable-high" | "down";

let scenario: Scenario = "clean";
let registry: ReturnType<typeof Bun.serve>;
let project: string;
const INSTALLED = lockedVersion("zod");

beforeAll(() => {
  registry = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (scenario === "down") return new Response("upstream unavailable", { status: 502 });
      if (request.method === "POST" && path === "/-/npm/v1/security/advisories/bulk") {
        if (scenario === "clean") return Response.json({});
        const severity = scenario === "fixable-moderate" ? "moderate" : "high";
        const range = scenario === "unfixable-high" ? "<999.0.0" : `<=${INSTALLED}`;
        return Response.json({
          zod: [{ id: 1, url: "https://github.com/advisories/GHSA-test-test-test", title: "Test advisory", severity, vulnerable_versions: range, cwe: [], cvss: { score: 7.5, vectorString: null } }],
        });
      }
      if (request.method === "GET" && path === "/zod") return Response.json(packument());
      return new Response("not found", { status: 404 });
    },
  });
  // A copy of the project files the audit reads, so a fix could never touch the checkout.
  project = tempDir("jobsearch-audit-");
  mkdirSync(join(project, ".ci"));
  for (const file of [".ci/audit", "package.json", "bun.lock"]) cpSync(join(ROOT, file), join(project, file));
});
afterAll(() => {
  registry.stop(true);
  rmSync(project, { recursive: true, force: true });
});

async function audit(which: Scenario) {
  scenario = which;
  const proc = Bun.spawn(["bash", join(project, ".ci/audit")], {
    cwd: project,
    env: { ...process.env, NPM_CONFIG_REGISTRY: `http://127.0.0.1:${registry.port}/`, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { output: stdout + stderr, code };
}

describe(".ci/audit", () => {
  test("no advisories: passes", async () => {
    const { output, code } = await audit("clean");
    expect(code).toBe(0);
    expect(output).toContain("audit: no known vulnerabilities");
  });

  test("a high advisory with a fix within our ranges fails CI and says how to fix it", async () => {
    const { output, code } = await audit("fixable-high");
    expect(code).toBe(1);
    expect(output).toContain("Test advisory");
    expect(output).toContain("run `bun audit fix` and commit bun.lock");
  });

  test("a high advisory without a published fix is reported, not failing", async () => {
    const { output, code } = await audit("unfixable-high");
    expect(code).toBe(0);
    expect(output).toContain("Test advisory");
    expect(output).toContain("reported, not failing CI");
  });

  test("a moderate advisory is reported, not failing, even with a fix", async () => {
    const { output, code } = await audit("fixable-moderate");
    expect(code).toBe(0);
    expect(output).toContain("Test advisory");
  });

  test("a registry that does not answer never fails CI", async () => {
    const { output, code } = await audit("down");
    expect(code).toBe(0);
    expect(output).toContain("audit: skipped");
  });
});

// --- internal ---

function lockedVersion(name: string): string {
  const lock = readFileSync(join(ROOT, "bun.lock"), "utf8");
  const version = new RegExp(`"${name}": \\["${name}@([^"]+)"`).exec(lock)?.[1];
  if (!version) throw new Error(`${name} is not in bun.lock`);
  return version;
}

/** zod as the registry lists it: the installed version, and in the fixable scenarios one patch above. */
function packument() {
  const [major, minor, patch] = INSTALLED.split(".").map(Number) as [number, number, number];
  const versions = [INSTALLED];
  if (scenario.startsWith("fixable")) versions.push(`${major}.${minor}.${patch + 1}`);
  return {
    name: "zod",
    "dist-tags": { latest: versions.at(-1) },
    versions: Object.fromEntries(
      versions.map((version) => [version, { name: "zod", version, dist: { tarball: `http://127.0.0.1:${registry.port}/zod/-/zod-${version}.tgz` } }]),
    ),
  };
}
