import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openKeyStore, type KeyStore } from "../../../server/auth/api-keys.ts";
import { openRedisKeyStore } from "../../../server/auth/api-keys-redis.ts";
import { connectRedis } from "../../../server/redis.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { runCli, startTestServer, tempDir, type TestServer } from "../../support/helpers.ts";
import { startRedis } from "../../support/redis.ts";

describe("key store in SQLite", () => {
  test("issues jsk_ keys with a 256-bit secret and stores only a hash", async () => {
    const dir = tempDir();
    const keys = openKeyStore(dir);
    const created = await keys.create("alice", 120);
    expect(created.key).toMatch(/^jsk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(await keys.verify(created.key)).toMatchObject({ id: created.id, name: "alice", rate_limit: 120 });
    keys.close();
    const secret = secretOf(created.key);
    for (const file of readdirSync(dir)) {
      expect(readFileSync(join(dir, file)).includes(Buffer.from(secret))).toBe(false);
    }
  });
});

describe("key store in Redis", () => {
  test("stores only a hash of the secret", async () => {
    const redis = await startRedis();
    const keys = openRedisKeyStore(await connectRedis(redis.url));
    try {
      const created = await keys.create("alice", 120);
      expect(await keys.verify(created.key)).toMatchObject({ id: created.id, name: "alice", rate_limit: 120, revoked_at: null });
      const client = await connectRedis(redis.url);
      const dump = JSON.stringify(await client.send("HGETALL", [`jobsearch:key:${created.id}`]));
      client.close();
      expect(dump).toContain("alice");
      expect(dump).not.toContain(secretOf(created.key));
    } finally {
      keys.close();
      await redis.stop();
    }
  });

  test("opens while its process holds the event loop past a second, as a busy start does", async () => {
    const redis = await startRedis();
    try {
      const opening = connectRedis(redis.url);
      const until = Date.now() + 1500;
      while (Date.now() < until); // the model and the table load on this thread while the stores open
      const client = await opening;
      expect(await client.send("PING", [])).toBe("PONG");
      client.close();
    } finally {
      await redis.stop();
    }
  });
});

/** Both backends behave the same: each case runs against SQLite in a temp dir and a real Redis. */
const backends: Array<[string, () => Promise<{ open(): Promise<KeyStore>; stop(): Promise<void> }>]> = [
  ["SQLite", async () => {
    const dir = tempDir();
    return { open: async () => openKeyStore(dir), stop: async () => rmSync(dir, { recursive: true, force: true }) };
  }],
  ["Redis", async () => {
    const redis = await startRedis();
    return { open: async () => openRedisKeyStore(await connectRedis(redis.url)), stop: () => redis.stop() };
  }],
];

describe.each(backends)("key store (%s)", (_, backend) => {
  test.each([
    ["a wrong secret", (key: string) => `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`],
    ["a truncated key", (key: string) => key.slice(0, -2)],
    ["another id", (key: string) => key.replace(/^jsk_[0-9a-f]{16}/, "jsk_0123456789abcdef")],
    ["an empty string", () => ""],
  ])("refuses %s", async (_, mangle) => {
    const b = await backend();
    const keys = await b.open();
    const created = await keys.create("bob");
    expect(await keys.verify(created.key)).toBeDefined();
    expect(await keys.verify(mangle(created.key))).toBeUndefined();
    keys.close();
    await b.stop();
  });

  test("revocation is immediate, also through a second connection; list and count agree", async () => {
    const b = await backend();
    const server = await b.open();
    const cli = await b.open();
    const created = await cli.create("carol");
    await Bun.sleep(5); // listed by creation time (to the millisecond), then id
    const other = await cli.create("dave");
    expect(await server.verify(created.key)).toBeDefined();
    expect(await server.activeCount()).toBe(2);
    expect(await cli.revoke(created.id)).toBe(true);
    expect(await cli.revoke(created.id)).toBe(false);
    expect(await cli.revoke("ffffffffffffffff")).toBe(false);
    expect(await server.verify(created.key)).toBeUndefined();
    expect(await server.getActive(created.id)).toBeUndefined();
    expect(await server.getActive(other.id)).toMatchObject({ name: "dave" });
    const listed = await server.list();
    expect(listed.map((k) => k.name)).toEqual(["carol", "dave"]);
    expect(listed.find((k) => k.id === created.id)?.revoked_at).toBeString();
    expect(await server.activeCount()).toBe(1);
    server.close();
    cli.close();
    await b.stop();
  });

  test("verify notes the first use", async () => {
    const b = await backend();
    const keys = await b.open();
    const created = await keys.create("erin");
    expect(created.last_used_at).toBeNull();
    const used = await keys.verify(created.key);
    expect(used?.last_used_at).toBeString();
    await Bun.sleep(20);
    expect((await keys.list())[0]?.last_used_at).toBe(used!.last_used_at);
    keys.close();
    await b.stop();
  });
});

describe("keys through the CLI against a running server", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ records: fixturePostings().slice(0, 6) });
  });
  afterAll(() => t.stop());

  const search = (key: string) =>
    fetch(`${t.url}/v1/search`, { method: "POST", headers: { "x-api-key": key }, body: JSON.stringify({ q: "nurse" }) });

  test("create --json, list without secrets, revoke within a second", async () => {
    const env = { DATA_DIR: t.dataDir };
    const created = await runCli(["keys", "create", "--name", "partner", "--rate-limit", "600", "--json"], env);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; name: string; key: string; rate_limit: number };
    expect(key).toMatchObject({ name: "partner", rate_limit: 600 });
    expect((await search(key.key)).status).toBe(200);

    const listed = await runCli(["keys", "list", "--json"], env);
    const all = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(all.find((k) => k.id === key.id)).toMatchObject({ name: "partner", rate_limit: 600, revoked_at: null });
    expect(listed.stdout).not.toContain(secretOf(key.key));
    expect(Object.keys(all[0]!).sort()).toEqual(["created_at", "id", "last_used_at", "name", "rate_limit", "revoked_at"]);

    const revoked = await runCli(["keys", "revoke", key.id], env);
    expect(revoked.code).toBe(0);
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 1000) status = (await search(key.key)).status;
    expect(status).toBe(403);
  });

  test("revoking an unknown id and a bad rate limit exit 1 with error [CODE]", async () => {
    const unknown = await runCli(["keys", "revoke", "ffffffffffffffff"], { DATA_DIR: t.dataDir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("error [NOT_FOUND]: no active key with id ffffffffffffffff");
    const bad = await runCli(["keys", "create", "--name", "x", "--rate-limit", "fast"], { DATA_DIR: t.dataDir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("error [INVALID_PARAMETER]: --rate-limit must be a whole number");
  });
});

/** The secret part of `jsk_<16 hex>_<secret>` (the secret itself may contain `_`). */
function secretOf(key: string): string {
  return key.slice("jsk_".length + 16 + 1);
}
