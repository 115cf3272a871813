import type { RedisClient } from "bun";
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SIGNING_KEY_FILE = "oauth-signing-key.json";

/** Where the signing key ring (a JSON text) is kept: a file in DATA_DIR or a Redis key. */
export interface KeyRingStore {
  /** For messages: the file or Redis key. */
  readonly where: string;
  read(): Promise<string | undefined>;
  /** Stores `text` unless a ring exists already; returns the ring that won, so racing processes agree. */
  create(text: string): Promise<string>;
  /** Replaces the ring (key rotation). */
  replace(text: string): Promise<void>;
}

/** `<dataDir>/oauth-signing-key.json`, mode 0600, written aside and moved into place (never half-written). */
export function fileKeyRing(dataDir: string): KeyRingStore {
  const path = join(dataDir, SIGNING_KEY_FILE);
  const temp = () => `${path}.${process.pid}.${Date.now()}.tmp`;
  const read = async () => {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new Error(`cannot read the OAuth signing key ${path}`, { cause: error });
    }
  };
  return {
    where: path,
    read,
    async create(text) {
      mkdirSync(dataDir, { recursive: true });
      const aside = temp();
      writeFileSync(aside, `${text}\n`, { mode: 0o600 });
      // link fails when the file exists, so two processes starting at once agree on the first key.
      try {
        linkSync(aside, path);
        return text;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        return (await read())!;
      } finally {
        rmSync(aside, { force: true });
      }
    },
    async replace(text) {
      mkdirSync(dataDir, { recursive: true });
      const aside = temp();
      writeFileSync(aside, `${text}\n`, { mode: 0o600 });
      renameSync(aside, path);
    },
  };
}

/** The Redis key `<prefix>signing-keys`; the first process to SET NX wins. */
export function redisKeyRing(redis: RedisClient, prefix = "jobsearch:oauth:"): KeyRingStore {
  const key = `${prefix}signing-keys`;
  const read = async () => ((await redis.send("GET", [key])) as string | null) ?? undefined;
  return {
    where: `Redis key ${key}`,
    read,
    async create(text) {
      await redis.send("SET", [key, text, "NX"]);
      return (await read())!;
    },
    async replace(text) {
      await redis.send("SET", [key, text]);
    },
  };
}
