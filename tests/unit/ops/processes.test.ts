import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { loadConfig } from "../../../server/config.ts";
import { WriteBusyError, writeLock } from "../../../server/store/write-lease.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { holdSlots, serverLog, spawnServer, tempDir, until } from "../../support/helpers.ts";
import { startRedis, type TestRedis } from "../../support/redis.ts";
import { createApiKey, loadDataDir } from "../../support/stores.ts";

/*
 * SERVER_PROCESSES=2: a primary and one worker on one port (SO_REUSEPORT), as an operator runs them.
 * Every request goes over a fresh connection, so the kernel spreads them over both processes; the
 * request log lines carry the pid of the process that answered.
 */

const dirs: string[] = [];
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("SERVER_PROCESSES", () => {
  test.each(["0", "-1", "1.5", "two"])("%p is refused, naming the variable", (value) => {
    expect(() => loadConfig({ SERVER_PROCESSES: value })).toThrow(/SERVER_PROCESSES: must be a whole number of processes \(1 or more\) or "auto"/);
  });
  test("auto is one process per core; unset is 1", () => {
    expect(loadConfig({ SERVER_PROCESSES: "auto" }).processes).toBe(availableParallelism());
    expect(loadConfig({}).processes).toBe(1);
  });
});

describe("two processes without Redis", () => {
  let cluster: Cluster;
  let key: string;
  beforeAll(async () => {
    const dataDir = newDir();
    key = await createKey(dataDir);
    cluster = await startCluster(dataDir, { MAX_IN_FLIGHT_PER_KEY: "64" });
  }, 60_000);
  afterAll(() => cluster?.stop());

  test("both processes answer searches on the one port; the ready line names the worker", async () => {
    expect(cluster.ready.processes).toBe(2);
    expect(cluster.workers).toHaveLength(1);
    const statuses = await Promise.all(Array.from({ length: 24 }, () => search(cluster.url, key)));
    expect(statuses.map((s) => s.status)).toEqual(Array(24).fill(200));
    const pids = await cluster.pidsOf(statuses.map((s) => s.requestId));
    expect([...pids].sort()).toEqual([cluster.primary, ...cluster.workers].sort());
  });

  test("a key's rate limit holds for the whole service: of 3 × limit requests over both processes, limit succeed", async () => {
    await expectOneLimit(cluster, await createKey(cluster.dataDir, LIMIT));
  });

  test("loads still take turns while the server runs: a second writer is refused, then loads, and both processes see it", async () => {
    // The loads run in this process, with the function `cli ingest` runs: the server's processes are the
    // subject here (the CLI's own refusal is tested in tests/unit/store/write-lease.test.ts).
    const lock = writeLock({ uri: cluster.dataDir });
    const held = await lock.acquire({ what: "test" });
    const refused = await loadDataDir(cluster.dataDir, fixturePostings(), { wait: false }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WriteBusyError);
    expect(String(refused)).toContain(`another write to this table is running (test started at`);
    await held.release();
    const loaded = await loadDataDir(cluster.dataDir, fixturePostings(), { wait: false });
    expect(loaded.inserted).toBe(fixturePostings().length);
    // Neither server process holds the lease once the load is done.
    const free = await lock.tryAcquire("test");
    expect(free).toBeDefined();
    await free!.release();
    const answers = await Promise.all(Array.from({ length: 16 }, () => search(cluster.url, key, "registered nurse")));
    expect(answers.every((a) => a.status === 200 && a.total > 0)).toBe(true);
    expect((await cluster.pidsOf(answers.map((a) => a.requestId))).size).toBe(2);
  });

  test("a worker that dies is started again, on the same port", async () => {
    const [dead] = cluster.workers;
    process.kill(dead!, "SIGKILL");
    const line = await cluster.waitFor((entry) => entry.msg === "server process ready" && entry.pid !== dead);
    expect(cluster.log()).toContain(`"msg":"server process exited; starting another","pid":${cluster.primary},"exited":${dead}`);
    const answers = await Promise.all(Array.from({ length: 24 }, () => search(cluster.url, key)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await cluster.pidsOf(answers.map((a) => a.requestId))).toEqual(new Set([cluster.primary, line.pid as number]));
  }, 30_000);

  test("SIGTERM to the primary stops every process, each exiting 0 after its requests", async () => {
    const pids = [cluster.primary, ...cluster.currentWorkers()];
    expect(await cluster.stop()).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    expect(cluster.entries().filter((e) => e.msg === "stopped").map((e) => e.pid).sort()).toEqual(pids.sort());
  });
});

test("a key's rate limit holds for the whole service with Redis too", async () => {
  const dataDir = newDir();
  const cluster = await startCluster(dataDir, { REDIS_URL: redis.url, MAX_IN_FLIGHT_PER_KEY: "64" });
  try {
    const key = await createApiKey(dataDir, "redis", { REDIS_URL: redis.url }, LIMIT);
    await expectOneLimit(cluster, key);
  } finally {
    await cluster.stop();
  }
}, 60_000);

// One cluster for both tests: the second kills its primary outright, whatever worker the first left it.
describe("two processes with a key's slots limited", () => {
  let cluster: Cluster;
  let key: string;
  beforeAll(async () => {
    const dataDir = newDir();
    key = await createKey(dataDir);
    cluster = await startCluster(dataDir, { MAX_IN_FLIGHT_PER_KEY: String(SLOTS) });
  }, 60_000);
  afterAll(() => cluster?.stop());

  test("requests in flight are limited per key across both processes, and the slots a dead worker held come back", async () => {
    // SLOTS requests whose bodies wait: they take every slot, wherever the kernel sent them.
    const held = await holdSlots(cluster.url, key, SLOTS, () => search(cluster.url, key), { q: "engineer", top_k: 1 });
    try {
      const refused = await Promise.all(Array.from({ length: 12 }, () => search(cluster.url, key)));
      expect(refused.map((a) => a.status)).toEqual(Array(12).fill(429));
      expect((await cluster.pidsOf(refused.map((a) => a.requestId))).size).toBe(2);

      // The worker dies with its share of them; the primary's finish normally.
      process.kill(cluster.workers[0]!, "SIGKILL");
      const finished = await Promise.all(held.map((request) => request.finish()));
      await cluster.waitFor((entry) => entry.msg === "server process ready" && entry.pid !== cluster.workers[0]);
      expect(finished.filter((f) => f.status === 200).length).toBeGreaterThan(0);
      expect(finished.filter((f) => Number.isNaN(f.status)).length).toBeGreaterThan(0); // cut off with the worker
      for (let i = 0; i < SLOTS; i++) expect((await search(cluster.url, key)).status).toBe(200);
      const together = await Promise.all(Array.from({ length: SLOTS }, () => search(cluster.url, key)));
      expect(together.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(SLOTS - 1); // a slot given back may arrive a moment late
    } finally {
      for (const request of held) request.abort();
    }
  }, 60_000);

  test("when the primary is killed outright, its workers stop too", async () => {
    const workers = cluster.currentWorkers();
    expect(workers).toHaveLength(1);
    cluster.process.kill("SIGKILL");
    await cluster.process.exited;
    expect(await until(() => workers.filter(alive), (left) => left.length === 0, 100)).toEqual([]);
  }, 60_000);
});

// --- helpers ---

/** Per-minute limit of the rate-limited keys: a burst of LIMIT, then one every 60 / LIMIT s. */
const LIMIT = 30;
/** MAX_IN_FLIGHT_PER_KEY of the in-flight test: with this many held, all on the primary is a 1-in-1024 chance. */
const SLOTS = 10;

type Entry = Record<string, unknown>;
type Cluster = Awaited<ReturnType<typeof startCluster>>;

function newDir(): string {
  const dir = tempDir("jobsearch-procs-");
  dirs.push(dir);
  return dir;
}

/** A key made in this process, as `cli keys create` makes it (the CLI's own tests are elsewhere). */
function createKey(dataDir: string, rateLimit?: number): Promise<string> {
  return createApiKey(dataDir, "test", {}, rateLimit);
}

/** `bun server/main.ts` with SERVER_PROCESSES=2, its stderr read on into `log()`. */
async function startCluster(dataDir: string, env: Record<string, string> = {}) {
  const server = await spawnServer(dataDir, { SERVER_PROCESSES: "2", DEMO_DATA: "false", LOG_FORMAT: "json", LOG_LEVEL: "info", READ_CONSISTENCY_MS: "0", ...env });
  const log = serverLog(server);
  const entries = () => log.text().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Entry);
  return {
    dataDir,
    process: server.proc,
    ready: server.ready as Entry,
    url: server.ready.url as string,
    primary: server.ready.pid as number,
    workers: server.ready.workers as number[],
    log: log.text,
    entries,
    /** Workers seen ready, less those seen exiting. */
    currentWorkers: () => {
      const gone = new Set(entries().map((e) => e.exited));
      return [...new Set(entries().filter((e) => e.msg === "server process ready").map((e) => e.pid as number))].filter((pid) => !gone.has(pid));
    },
    /** The pids that answered these requests (their log lines are written just after the responses). */
    async pidsOf(requestIds: string[]): Promise<Set<unknown>> {
      const lines = () => new Map(entries().filter((e) => e.msg === "request").map((e) => [e.request_id, e.pid]));
      const found = await until(lines, (seen) => requestIds.every((id) => seen.has(id)));
      return new Set(requestIds.map((id) => found.get(id)));
    },
    async waitFor(match: (entry: Entry) => boolean): Promise<Entry> {
      return (await until(() => entries().find(match), (found) => found !== undefined))!;
    },
    async stop(): Promise<number> {
      if (server.proc.exitCode === null) server.proc.kill("SIGTERM");
      const code = await server.proc.exited;
      await log.all();
      return code;
    },
  };
}

/** POST /v1/search over a connection of its own; the status, the results and the request id. */
async function search(url: string, key: string, q = "engineer") {
  const response = await fetch(`${url}/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key, connection: "close" },
    body: JSON.stringify({ q, top_k: 1 }),
  });
  const body = (await response.json()) as { total?: number };
  return { status: response.status, total: body.total ?? 0, requestId: response.headers.get("x-request-id")! };
}

/**
 * 3 × LIMIT requests of one key, 10 at a time over fresh connections: LIMIT succeed (GCRA lets one
 * more through per 60 / LIMIT s elapsed), the rest are 429; both processes answered both kinds.
 * Limits counted per process would let up to 2 × LIMIT through.
 */
async function expectOneLimit(cluster: Cluster, key: string): Promise<void> {
  const started = performance.now();
  const answers: Array<Awaited<ReturnType<typeof search>>> = [];
  for (let round = 0; round < (3 * LIMIT) / 10; round++) answers.push(...(await Promise.all(Array.from({ length: 10 }, () => search(cluster.url, key)))));
  const refills = Math.floor((performance.now() - started) / (60_000 / LIMIT));
  const ok = answers.filter((a) => a.status === 200);
  expect(answers.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([]);
  expect(ok.length).toBeGreaterThanOrEqual(LIMIT);
  expect(ok.length).toBeLessThanOrEqual(LIMIT + refills);
  const servedBy = (status: number) => cluster.pidsOf(answers.filter((a) => a.status === status).map((a) => a.requestId));
  expect((await servedBy(200)).size).toBe(2);
  expect((await servedBy(429)).size).toBe(2);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
