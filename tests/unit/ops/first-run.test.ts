import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startServer } from "../../../server/start.ts";
import { openStore } from "../../../server/store/store.ts";
import { ROOT, spawnServer, tempDir, testConfig } from "../../support/helpers.ts";
import { logWatch } from "../../support/ops.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test("an empty DATA_DIR gets the demo postings and a first key that works as printed", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const first = await spawnServer(dataDir);
  expect(first.ready.postings).toBeGreaterThanOrEqual(2000);
  // The log names the key store and how many keys it holds, so a key created elsewhere is easy to spot.
  expect(first.ready).toMatchObject({ key_store: join(dataDir, "auth.sqlite"), keys: 1 });
  const stdout = await first.stop();
  const key = /jsk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}/.exec(stdout)?.[0];
  expect(key).toBeDefined();
  const curl = stdout.split("\n").find((line) => line.trim().startsWith("curl "))!;
  expect(curl).toContain(`x-api-key: ${key}`);

  // Restarted: no second seeding, no second key, and the printed key works.
  const second = await spawnServer(dataDir);
  expect(second.ready.postings).toBe(first.ready.postings);
  const body = /-d '([^']+)'/.exec(curl)![1]!;
  const response = await fetch(`${second.ready.url}/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key! },
    body,
  });
  expect(response.status).toBe(200);
  const result = (await response.json()) as { total: number; results: Array<{ data_source: string }> };
  expect(result.total).toBe(5);
  expect(["indeed", "linkedin"]).toContain(result.results[0]!.data_source);
  expect(await second.stop()).not.toContain("jsk_");
}, 120_000);

test("DEMO_DATA=false leaves the table empty", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  // In this process: the variable's effect is the subject, not the process (the test above spawns one).
  const log = logWatch();
  const server = await startServer(testConfig(dataDir, { DEMO_DATA: "false" }), log.logger);
  try {
    expect(log.entries.find((entry) => entry.msg === "ready")).toMatchObject({ postings: 0 });
  } finally {
    await server.stop();
  }
}, 60_000);

test("a bad variable stops the server with a list of what is wrong", async () => {
  const proc = Bun.spawn(["bun", join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: { ...process.env, PORT: "eighty", DEMO_DATA: "maybe" },
    stderr: "pipe",
  });
  expect(await proc.exited).not.toBe(0);
  const stderr = await new Response(proc.stderr).text();
  expect(stderr).toContain("invalid configuration");
  expect(stderr).toContain("PORT");
  expect(stderr).toContain("DEMO_DATA");
});

test("a table built with another embedding model refuses to open, telling the operator to re-ingest", async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  (await openStore({ dataDir, modelId: "model-a", dimension: 8 })).close();
  const error = await openStore({ dataDir, modelId: "model-b", dimension: 16 }).catch((e: Error) => e);
  expect(String(error)).toContain('built with embedding model "model-a" (dimension 8)');
  expect(String(error)).toContain("re-ingest");
});
