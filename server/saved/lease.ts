import { hostname } from "node:os";
import type { Config } from "../config.ts";
import { connectRedis, createRedisLease } from "../redis.ts";
import { openDataFile } from "../sqlite.ts";

/**
 * Who sends webhooks: one process at a time among every server process and replica, the holder of
 * a lease that it renews while it works (in Redis with REDIS_URL, else a row in DATA_DIR's
 * saved-searches.sqlite). A holder that died gives it up when its TTL runs out, or at once on the
 * same machine when its process is gone.
 */
export interface SenderLease {
  /** True when this process holds it now (taken or renewed). */
  hold(): Promise<boolean>;
  release(): Promise<void>;
  close(): void;
}

export const LEASE_TTL_MS = 30_000;

export async function openSenderLease(config: Config): Promise<SenderLease> {
  if (config.redisUrl) {
    const redis = await connectRedis(config.redisUrl);
    const lease = createRedisLease(redis, "jobsearch:webhooks:lease", LEASE_TTL_MS, { host: hostname(), pid: process.pid });
    return {
      hold: async () => (await lease.renew()) || (await lease.acquire()),
      release: () => lease.release(),
      close: () => redis.close(),
    };
  }
  return sqliteLease(config.dataDir);
}

// --- internal ---

function sqliteLease(dataDir: string): SenderLease {
  const db = openDataFile(dataDir, "saved-searches.sqlite");
  db.run("CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL, token TEXT NOT NULL, expires_at INTEGER NOT NULL)");
  const me = { host: hostname(), pid: process.pid, token: crypto.randomUUID() };
  const take = db.transaction((now: number) => {
    const held = db.query<{ host: string; pid: number; token: string; expires_at: number }, []>("SELECT * FROM leases WHERE name = 'webhooks'").get();
    const free = !held || held.token === me.token || held.expires_at < now || (held.host === me.host && !alive(held.pid));
    if (!free) return false;
    db.query("INSERT OR REPLACE INTO leases VALUES ('webhooks', ?, ?, ?, ?)").run(me.host, me.pid, me.token, now + LEASE_TTL_MS);
    return true;
  });
  return {
    hold: async () => take.immediate(Date.now()),
    release: async () => void db.query("DELETE FROM leases WHERE name = 'webhooks' AND token = ?").run(me.token),
    close: () => db.close(),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
