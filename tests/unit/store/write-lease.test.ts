import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { connectRedis } from "../../../server/redis.ts";
import { WriteBusyError, writeLock, type LeaseHolder } from "../../../server/store/write-lease.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { ROOT, runCli, startCli, tempDir } from "../../support/helpers.ts";
import { startRedis, type TestRedis } from "../../support/redis.ts";

const dirs: string[] = [];
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  await redis.stop();
});

function dataDir(): string {
  const dir = tempDir("jobsearch-lease-");
  dirs.push(dir);
  return dir;
}

test("a local table has one writer at a time; a waiter is told who holds it and gets it once released", async () => {
  const lock = writeLock({ uri: dataDir() });
  const first = await lock.acquire({ what: "load" });
  expect(await lock.tryAcquire("index build")).toBeUndefined();
  const busy = await lock.acquire({ what: "load", wait: false }).catch((error: unknown) => error);
  expect(busy).toBeInstanceOf(WriteBusyError);
  expect((busy as WriteBusyError).holder).toMatchObject({ what: "load", pid: process.pid });
  expect((busy as Error).message).toMatch(/^another write to this table is running \(load started at \d{4}-\d\d-\d\dT.* by pid \d+ on /);

  const told: Array<LeaseHolder | undefined> = [];
  let waiting!: () => void;
  const waits = new Promise<void>((resolve) => (waiting = resolve));
  const second = lock.acquire({ what: "load", onWait: (holder) => (told.push(holder), waiting()) });
  await waits;
  expect(told).toHaveLength(1);
  expect(told[0]?.what).toBe("load");
  await first.release();
  await (await second).release();
  expect(told).toHaveLength(1);
});

test("a lease whose holder was killed is free at once (the kernel drops the file lock)", async () => {
  const dir = dataDir();
  const holder = Bun.spawn(["bun", "-e", `
    const { writeLock } = await import(${JSON.stringify(join(ROOT, "server/store/write-lease.ts"))});
    await writeLock({ uri: ${JSON.stringify(dir)} }).acquire({ what: "load" });
    console.log("held");
    await Bun.sleep(60_000);
  `], { stdout: "pipe" });
  const reader = holder.stdout.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toContain("held");
  const lock = writeLock({ uri: dir });
  expect(await lock.tryAcquire("load")).toBeUndefined();
  holder.kill("SIGKILL");
  await holder.exited;
  const lease = await lock.tryAcquire("load");
  expect(lease).toBeDefined();
  await lease!.release();
});

test("an object-store table's lease lives in Redis: one holder, its details for waiters, released only by the holder", async () => {
  const [a, b] = await Promise.all([connectRedis(redis.url), connectRedis(redis.url)]);
  try {
    const location = { uri: "s3://bucket/lease-test" };
    const first = await writeLock(location, a).acquire({ what: "load" });
    const busy = await writeLock(location, b).acquire({ what: "load", wait: false }).catch((error: unknown) => error);
    expect((busy as WriteBusyError).holder).toMatchObject({ what: "load", pid: process.pid });
    expect(await writeLock(location, b).tryAcquire("index build")).toBeUndefined();
    // Another table's lease is another key.
    const other = await writeLock({ uri: "s3://bucket/other" }, b).tryAcquire("load");
    expect(other).toBeDefined();
    await other!.release();
    await first.release();
    const second = await writeLock(location, b).tryAcquire("load");
    expect(second).toBeDefined();
    await first.release(); // released already: changes nothing
    expect(await writeLock(location, a).tryAcquire("load")).toBeUndefined();
    await second!.release();
  } finally {
    a.close();
    b.close();
  }
});

test("cli ingest --no-wait refuses while another writer holds the table, naming it; without it the load waits and completes", async () => {
  const dir = dataDir();
  const file = join(dir, "postings.json");
  await Bun.write(file, JSON.stringify(fixturePostings()));
  const lease = await writeLock({ uri: dir }).acquire({ what: "restore" });
  const refused = await runCli(["ingest", file, "--no-wait"], { DATA_DIR: dir });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/another write to this table is running \(restore started at .* by pid \d+ on /);

  const waiting = startCli(["ingest", file], { DATA_DIR: dir });
  await waiting.stderrContains("waiting for the restore");
  await lease.release();
  const done = await waiting.done;
  expect(done.code).toBe(0);
  expect(done.stderr).toMatch(/waiting for the restore started at .* by pid \d+ on .* to finish \(--no-wait refuses instead\)/);
  expect(done.stdout).toContain(`ingested ${fixturePostings().length} new`);
}, 60_000);
