import { randomBytes } from "node:crypto";
import { hashSecret, randomSecret, sameBytes } from "./secrets.ts";
import { openDataFile } from "../sqlite.ts";

export interface ApiKeyInfo {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Requests per minute; null = the server default. */
  rate_limit: number | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  /** The secret itself: shown once, stored only as a hash. */
  key: string;
}

/** Where keys live: SQLite in DATA_DIR (`openKeyStore`) or Redis (`openRedisKeyStore`), same behaviour. */
export interface KeyStore {
  create(name: string, rateLimit?: number): Promise<CreatedApiKey>;
  list(): Promise<ApiKeyInfo[]>;
  /** Resolves false when no active key has this id. */
  revoke(id: string): Promise<boolean>;
  /** The key's record when the key is valid and not revoked. */
  verify(key: string): Promise<ApiKeyInfo | undefined>;
  /** The record of an active (not revoked) key by id, e.g. the owner of an OAuth token. */
  getActive(id: string): Promise<ApiKeyInfo | undefined>;
  activeCount(): Promise<number>;
  close(): void;
}

/** `jsk_<id>_<secret>`: 16 hex id, 43 base64url characters of secret. */
const KEY_PATTERN = /^jsk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
/** last_used_at is written at most this often per key, so verifying stays a read. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * API keys in `<dataDir>/auth.sqlite`. Keys look like `jsk_<id>_<secret>` with a 256-bit secret;
 * only SHA-256 of the secret is stored and it is compared in constant time. Every verify reads
 * the database, so a revocation by another process (the CLI) applies to the next request.
 */
export function openKeyStore(dataDir: string): KeyStore {
  const db = openDataFile(dataDir, "auth.sqlite");
  db.run(`CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    secret_hash BLOB NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT,
    rate_limit INTEGER
  )`);
  const columns = "id, name, created_at, last_used_at, revoked_at, rate_limit";
  const byId = db.query<ApiKeyInfo & { secret_hash: Uint8Array }, [string]>(
    `SELECT ${columns}, secret_hash FROM api_keys WHERE id = ?`,
  );
  const touch = db.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?");

  return {
    async create(name, rateLimit) {
      const { created, secretHash } = newKey(name, rateLimit);
      db.query("INSERT INTO api_keys (id, name, secret_hash, created_at, rate_limit) VALUES (?, ?, ?, ?, ?)").run(
        created.id, name, secretHash, created.created_at, created.rate_limit,
      );
      return created;
    },

    async list() {
      return db.query<ApiKeyInfo, []>(`SELECT ${columns} FROM api_keys ORDER BY created_at, id`).all();
    },

    async revoke(id) {
      const result = db
        .query("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
        .run(new Date().toISOString(), id);
      return result.changes > 0;
    },

    async verify(key) {
      const parsed = parseKey(key);
      if (!parsed) return undefined;
      const { id, secret } = parsed;
      const row = byId.get(id);
      if (!row || row.revoked_at !== null) return undefined;
      if (!secretMatches(secret, row.secret_hash)) return undefined;
      const now = Date.now();
      if (row.last_used_at === null || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
        row.last_used_at = new Date(now).toISOString();
        touch.run(row.last_used_at, id);
      }
      const { secret_hash: _, ...info } = row;
      return info;
    },

    async getActive(id) {
      const row = byId.get(id);
      if (!row || row.revoked_at !== null) return undefined;
      const { secret_hash: _, ...info } = row;
      return info;
    },

    async activeCount() {
      return db.query<{ n: number }, []>("SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL").get()?.n ?? 0;
    },

    close: () => db.close(),
  };
}

/** A fresh key and the hash to store; the secret is 256 random bits. */
export function newKey(name: string, rateLimit?: number): { created: CreatedApiKey; secretHash: Buffer } {
  const id = randomBytes(8).toString("hex");
  const secret = randomSecret();
  const created: CreatedApiKey = {
    id, name, key: `jsk_${id}_${secret}`, created_at: new Date().toISOString(),
    last_used_at: null, revoked_at: null, rate_limit: rateLimit ?? null,
  };
  return { created, secretHash: hashSecret(secret) };
}

/** The id and secret of a well-formed key; undefined for anything else. */
export function parseKey(key: string): { id: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export function secretMatches(secret: string, storedHash: Uint8Array): boolean {
  return sameBytes(hashSecret(secret), storedHash);
}
