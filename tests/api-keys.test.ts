import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openKeyStore } from "../server/auth/api-keys.ts";
import { fixturePostings } from "./fixtures/postings.ts";
import { runCli, startTestServer, tempDir, type TestServer } from "./helpers.ts";

describe("key store", () => {
  test("issues jsk_ keys with a 256-bit secret and stores only a hash", () => {
    const dir = tempDir();
    const keys = openKeyStore(dir);
    const created = keys.create("alice", 120);
    expect(created.key).toMatch(/^jsk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(keys.verify(created.key)).toMatchObject({ id: created.id, name: "alice", rate_limit: 120 });
    keys.close();
    const secret = secretOf(created.key);
    for (const file of readdirSync(dir)) {
      expect(readFileSync(join(dir, file)).includes(Buffer.from(secret))).toBe(false);
    }
  });

  test.each([
    ["a wrong secret", (key: string) => `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`],
    ["a truncated key", (key: string) => key.slice(0, -2)],
    ["another id", (key: string) => key.replace(/^jsk_[0-9a-f]{16}/, "jsk_0123456789abcdef")],
    ["an empty string", () => ""],
  ])("refuses %s", (_, mangle) => {
    const keys = openKeyStore(tempDir());
    const created = keys.create("bob");
    expect(keys.verify(mangle(created.key))).toBeUndefined();
    keys.close();
  });

  test("revocation is immediate, also through a second connection", () => {
    const dir = tempDir();
    const server = openKeyStore(dir);
    const cli = openKeyStore(dir);
    const created = cli.create("carol");
    expect(server.verify(created.key)).toBeDefined();
    expect(cli.revoke(created.id)).toBe(true);
    expect(cli.revoke(created.id)).toBe(false);
    expect(server.verify(created.key)).toBeUndefined();
    expect(server.list().find((k) => k.id === created.id)?.revoked_at).toBeString();
    server.close();
    cli.close();
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
