import { dlopen, FFIType } from "bun:ffi";
import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { RedisClient } from "bun";
import { connectRedis, createRedisLease } from "../redis.ts";
import { isObjectStore, prepareLocation, type TableLocation } from "./table-location.ts";

/*
 * One writer at a time per table. LanceDB does not detect two concurrent inserts of the same new
 * id (two overlapping `mergeInsert`s both insert it), so every write path (loads, the index build,
 * restore) holds this lease while it writes. A local table is guarded by flock(2) on `write.lock`
 * in its folder: the kernel drops the lock when the holder exits or is killed, so a dead holder
 * never blocks anyone and nothing needs to guess whether it is stale. A table in an object store
 * is guarded by a lease in Redis (REDIS_URL), renewed every 10 s and expiring 30 s after its holder
 * died. Without Redis an object-store table is not guarded (said once on stderr).
 */

/** The lock file in a local table's folder. */
export const LOCK_FILE = "write.lock";

/** Who holds the lease, as a waiting writer reports it. */
export interface LeaseHolder {
  /** What it is doing: "load", "index build", "restore" … */
  what: string;
  pid: number;
  host: string;
  /** ISO time it took the lease. */
  since: string;
}

export interface WriteLease {
  /** Gives the lease up; safe to call twice. */
  release(): Promise<void>;
}

export interface AcquireOptions {
  /** What the holder will do, shown to writers that wait for it. */
  what: string;
  /** Wait for a holder to finish (default) or throw WriteBusyError at once. */
  wait?: boolean;
  /** Called once when the lease is held by someone else and this call starts to wait. */
  onWait?: (holder: LeaseHolder | undefined) => void;
}

/** Thrown by `acquire` with `wait: false` while another writer holds the lease. */
export class WriteBusyError extends Error {
  constructor(readonly holder: LeaseHolder | undefined) {
    super(`another write to this table is running${holder ? ` (${describeHolder(holder)})` : ""}`);
    this.name = "WriteBusyError";
  }
}

export interface WriteLock {
  acquire(options: AcquireOptions): Promise<WriteLease>;
  /** The lease when it is free now, else undefined (never waits). */
  tryAcquire(what: string): Promise<WriteLease | undefined>;
}

/** The write lock of the table at `location`; `redis` guards object-store tables. */
export function writeLock(location: TableLocation, redis?: RedisClient): WriteLock {
  const attempt = isObjectStore(location.uri)
    ? redis
      ? redisAttempt(redis, location.uri)
      : unguardedAttempt(location.uri)
    : fileAttempt(location);
  return {
    async acquire({ what, wait = true, onWait }) {
      let told = false;
      for (;;) {
        const result = await attempt(holderNow(what));
        if ("lease" in result) return result.lease;
        if (!wait) throw new WriteBusyError(result.holder);
        if (!told) onWait?.(result.holder);
        told = true;
        await Bun.sleep(POLL_MS);
      }
    },
    async tryAcquire(what) {
      const result = await attempt(holderNow(what));
      return "lease" in result ? result.lease : undefined;
    },
  };
}

/**
 * The write lock every process on the table uses: the file lock of a local table, or for an
 * object-store table the lease in `redisUrl`'s Redis (connected here; `close` disconnects).
 */
export async function openWriteLock(location: TableLocation, redisUrl?: string): Promise<{ lock: WriteLock; close(): void }> {
  const redis = redisUrl && isObjectStore(location.uri) ? await connectRedis(redisUrl) : undefined;
  return { lock: writeLock(location, redis), close: () => redis?.close() };
}

/** `load started at 2026-11-24T10:00:00.000Z by pid 4242 on host-a`. */
export function describeHolder(holder: LeaseHolder): string {
  return `${holder.what} started at ${holder.since} by pid ${holder.pid} on ${holder.host}`;
}

// --- internal ---

type Attempt = (holder: LeaseHolder) => Promise<{ lease: WriteLease } | { holder: LeaseHolder | undefined }>;

const POLL_MS = 250;
const REDIS_TTL_MS = 30_000;
const REDIS_RENEW_MS = 10_000;

function holderNow(what: string): LeaseHolder {
  return { what, pid: process.pid, host: hostname(), since: new Date().toISOString() };
}

function fileAttempt(location: TableLocation): Attempt {
  const path = join(location.uri, LOCK_FILE);
  return async (holder) => {
    prepareLocation(location);
    const fd = openSync(path, "a+");
    if (flock(fd, LOCK_EX | LOCK_NB) !== 0) {
      closeSync(fd);
      return { holder: readHolder(path) };
    }
    ftruncateSync(fd, 0);
    writeSync(fd, JSON.stringify(holder));
    return {
      lease: releasedOnce(async () => {
        ftruncateSync(fd, 0);
        flock(fd, LOCK_UN);
        closeSync(fd);
      }),
    };
  };
}

function readHolder(path: string): LeaseHolder | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LeaseHolder;
  } catch {
    return undefined; // written a moment from now, or by a holder that died between truncate and write
  }
}

function redisAttempt(redis: RedisClient, uri: string): Attempt {
  const name = `jobsearch:lease:write:${uri}`;
  return async (holder) => {
    const lease = createRedisLease(redis, name, REDIS_TTL_MS, { ...holder });
    if (!(await lease.acquire())) return { holder: (await lease.holder()) as LeaseHolder | undefined };
    const renewing = setInterval(() => {
      lease.renew().then(
        (held) => held || console.error(`warning: the write lease on ${uri} expired while held; another writer may start`),
        () => {},
      );
    }, REDIS_RENEW_MS);
    return {
      lease: releasedOnce(async () => {
        clearInterval(renewing);
        await lease.release();
      }),
    };
  };
}

function releasedOnce(release: () => Promise<void>): WriteLease {
  let held = true;
  return {
    async release() {
      if (!held) return;
      held = false;
      await release();
    },
  };
}

function unguardedAttempt(uri: string): Attempt {
  let warned = false;
  return async () => {
    if (!warned) console.error(`warning: ${uri} is an object store and REDIS_URL is not set, so concurrent writes to it are not guarded`);
    warned = true;
    return { lease: { release: async () => {} } };
  };
}

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

/** flock(2) from the C library: Bun and Node expose no file locks of their own. */
function flock(fd: number, operation: number): number {
  libc ??= dlopen(process.platform === "darwin" ? "libSystem.B.dylib" : "libc.so.6", {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  });
  return libc.symbols.flock(fd, operation);
}

let libc: ReturnType<typeof dlopen<{ flock: { args: [FFIType.i32, FFIType.i32]; returns: FFIType.i32 } }>> | undefined;
