import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { connectRedis } from "../../../server/redis.ts";
import { openSavedSearchStore, type SavedSearchStore } from "../../../server/saved/store.ts";
import { openRedisSavedSearchStore } from "../../../server/saved/store-redis.ts";
import { startRedis, type TestRedis } from "../../support/redis.ts";
import { tempDir } from "../../support/helpers.ts";

/**
 * The saved-search store, the same behaviour in SQLite (DATA_DIR) and in Redis (a real redis-server):
 * owners see only their own, names and counts are bounded, cursors move by compare-and-set, feed
 * tokens rotate and die with the saved search, and everything is there again after reopening.
 */

let redis: TestRedis;
const dir = tempDir();
beforeAll(async () => void (redis = await startRedis()));
afterAll(async () => {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

const backends: Array<[string, () => Promise<SavedSearchStore>]> = [
  ["SQLite", async () => openSavedSearchStore(dir)],
  ["Redis", async () => openRedisSavedSearchStore(await connectRedis(redis.url), { prefix: "test:" })],
];

describe.each(backends)("%s", (_, open) => {
  const options = { cursor: 1000, maxPerOwner: 2 };
  test("create, list, get and remove, per owner", async () => {
    const store = await open();
    const a = await store.create("key:a", { name: "one", params: { q: "rust" } }, options);
    expect(a).toMatchObject({ owner: "key:a", name: "one", params: { q: "rust" }, cursor: 1000, webhook: null });
    expect(a.feedToken.length).toBeGreaterThanOrEqual(43);
    expect((await store.list("key:a")).map((r) => r.id)).toEqual([a.id]);
    expect(await store.get("key:b", a.id)).toBeUndefined();
    expect(await store.remove("key:b", a.id)).toBe(false);
    expect((await store.byFeedToken(a.feedToken))?.id).toBe(a.id);
    expect(await store.remove("key:a", a.id)).toBe(true);
    expect(await store.byFeedToken(a.feedToken)).toBeUndefined();
    expect(await store.list("key:a")).toEqual([]);
    store.close();
  });

  test("names are unique per owner and each owner keeps at most maxPerOwner", async () => {
    const store = await open();
    await store.create("key:c", { name: "x", params: { q: "a" } }, options);
    await expect(store.create("key:c", { name: "x", params: { q: "b" } }, options)).rejects.toMatchObject({ code: "CONFLICT", status: 409 });
    await store.create("key:d", { name: "x", params: { q: "b" } }, options);
    await store.create("key:c", { name: "y", params: { q: "c" } }, options);
    await expect(store.create("key:c", { name: "z", params: { q: "d" } }, options)).rejects.toMatchObject({ code: "CONFLICT" });
    store.close();
  });

  test("a cursor moves only from where it is; of two moves from one place, one wins", async () => {
    const store = await open();
    const r = await store.create("key:e", { name: "c", params: { q: "a" }, webhookUrl: "https://example.com/hook" }, options);
    expect(r.webhook).toMatchObject({ url: "https://example.com/hook", cursor: 1000 });
    const moves = await Promise.all([store.advance(r.id, "poll", 1000, 2000), store.advance(r.id, "poll", 1000, 3000)]);
    expect(moves.filter(Boolean)).toHaveLength(1);
    expect(await store.advance(r.id, "webhook", 1000, 1500)).toBe(true);
    const after = await store.get("key:e", r.id);
    expect([2000, 3000]).toContain(after!.cursor);
    expect(after!.webhook!.cursor).toBe(1500);
    expect((await store.withWebhooks()).map((w) => w.id)).toContain(r.id);
    store.close();
  });

  test("an id or token not of its making finds nothing, whatever key it could name", async () => {
    const store = await open();
    const r = await store.create("key:h", { name: "h", params: { q: "a" } }, options);
    for (const id of ["owner:key:h", "names:key:h", "webhooks", `${r.id}\u0000`, "x".repeat(5000), "' OR 1=1 --"]) {
      expect(await store.get("key:h", id)).toBeUndefined();
      expect(await store.remove("key:h", id)).toBe(false);
      expect(await store.rotateFeedToken("key:h", id)).toBeUndefined();
      expect(await store.advance(id, "poll", 1000, 2000)).toBe(false);
      expect(await store.byFeedToken(id)).toBeUndefined();
    }
    expect((await store.get("key:h", r.id))?.cursor).toBe(1000);
    store.close();
  });

  test("a rotated feed token replaces the old one; reopened, everything is still there", async () => {
    const store = await open();
    const r = await store.create("key:f", { name: "feed", params: { q: "a" } }, options);
    const token = await store.rotateFeedToken("key:f", r.id);
    expect(token).toBeDefined();
    expect(await store.rotateFeedToken("key:g", r.id)).toBeUndefined();
    expect(await store.byFeedToken(r.feedToken)).toBeUndefined();
    store.close();
    const reopened = await open();
    expect((await reopened.byFeedToken(token!))?.name).toBe("feed");
    expect((await reopened.list("key:f")).map((s) => s.id)).toEqual([r.id]);
    reopened.close();
  });
});
