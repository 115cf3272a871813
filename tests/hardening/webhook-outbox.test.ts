import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { anotherJobLike, fixturePostings } from "../support/fixtures/postings.ts";
import { spawnServer, tempDir } from "../support/helpers.ts";
import { startRedis, type TestRedis } from "../support/redis.ts";
import { startReceiver, type ReceivedHook, type Receiver } from "../support/receiver.ts";
import { copyDataDir, createApiKey, loadDataDir } from "../support/stores.ts";

/**
 * The webhook outbox across processes: a server SIGKILLed while a delivery waits on the receiver
 * sends it again after a restart (same Idempotency-Key, same body), and several server processes
 * (SERVER_PROCESSES=2 on DATA_DIR; two replicas on Redis) send each delivery once. Loads come from
 * another process than the servers, as an operator's would: this one, by the function `cli ingest` runs
 * (the CLI's own tests run the command).
 */

const WEBHOOK_ENV = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "50", WEBHOOK_RETRY_BASE_MS: "20", DEMO_DATA: "false", READ_CONSISTENCY_MS: "0", LOG_LEVEL: "info", LOG_FORMAT: "json" };
const nurse = fixturePostings().find((p) => p.job_title === "Registered Nurse" && p.city === "London")!;
let serial = 0;
let redis: TestRedis;
/** The fixture postings loaded once; each test's DATA_DIR is a copy. */
let loaded: string;
const dirs: string[] = [];
beforeAll(async () => {
  redis = await startRedis();
  loaded = tempDir();
  dirs.push(loaded);
  await loadDataDir(loaded, fixturePostings());
});
afterAll(async () => {
  await redis.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * A DATA_DIR with the fixture postings loaded and an API key (made in this process, by the functions
 * `cli ingest` and `cli keys create` run); `env` is shared by the key store and the servers.
 */
async function prepare(env: Record<string, string> = {}) {
  const dataDir = copyDataDir(loaded);
  dirs.push(dataDir);
  const all = { ...WEBHOOK_ENV, DATA_DIR: dataDir, ...env };
  return { dataDir, env: all, key: await createApiKey(dataDir, "hooks", all) };
}

/** A load into the servers' DATA_DIR from this process, while they run. */
async function load(env: Record<string, string>, postings: object[]): Promise<void> {
  expect((await loadDataDir(env.DATA_DIR!, postings)).inserted).toBe(postings.length);
}

const newNurse = () => anotherJobLike(nurse, `outbox-${++serial}`);

async function saveWithHook(url: string, key: string, receiver: Receiver): Promise<string> {
  const response = await fetch(`${url}/v1/saved-searches`, {
    method: "POST", headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ name: `nurses ${++serial}`, q: "registered nurse", city: "London", webhook_url: receiver.url }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const answered = (received: ReceivedHook[]) => received.filter((hook) => hook.answered === "ok");
const keyOf = (hook: ReceivedHook) => hook.headers["idempotency-key"];

describe("webhook outbox", () => {
  test("a server killed during a delivery sends it again after a restart: same key, same body, nothing lost", async () => {
    const receiver = startReceiver();
    receiver.plan.push("hang");
    const { dataDir, env, key } = await prepare({ WEBHOOK_TIMEOUT_MS: "60000" });
    let server = await spawnServer(dataDir, env);
    try {
      await saveWithHook(server.ready.url, key, receiver);
      const posting = newNurse();
      await load(env, [posting]);
      await receiver.until((received) => received.length === 1);
      server.proc.kill("SIGKILL");
      await server.proc.exited;
      server = await spawnServer(dataDir, env);
      await receiver.until((received) => answered(received).length === 1);
      const [hung, resent] = receiver.received;
      expect(hung!.answered).toBe("hang");
      expect(keyOf(resent!)).toBe(keyOf(hung!));
      expect(resent!.body).toBe(hung!.body);
      expect((JSON.parse(resent!.body) as { results: Array<{ id: string }> }).results.map((r) => r.id)).toEqual([posting.id]);
    } finally {
      await server.stop();
      await receiver.stop();
    }
  });

  test.each([
    ["two processes on one DATA_DIR", { SERVER_PROCESSES: "2" }],
    ["two replicas on Redis", { REPLICAS: "2" }],
  ])("%s send each delivery once", async (_, extra: Record<string, string>) => {
    const receiver = startReceiver();
    const replicas = extra.REPLICAS === "2";
    const { dataDir, env, key } = await prepare(replicas ? { REDIS_URL: redis.url } : extra);
    const servers = [await spawnServer(dataDir, env)];
    if (replicas) servers.push(await spawnServer(dataDir, env));
    try {
      await saveWithHook(servers[0]!.ready.url, key, receiver);
      const loaded: string[] = [];
      for (let round = 1; round <= 3; round++) {
        const posting = newNurse();
        loaded.push(posting.id);
        await load(env, [posting]);
        await receiver.until((received) => answered(received).length === round);
      }
      const keys = receiver.received.map(keyOf);
      expect(new Set(keys).size).toBe(keys.length);
      expect(receiver.received.flatMap((hook) => (JSON.parse(hook.body) as { results: Array<{ id: string }> }).results.map((r) => r.id))).toEqual(loaded);
    } finally {
      for (const server of servers) await server.stop();
      await receiver.stop();
    }
  });
});
