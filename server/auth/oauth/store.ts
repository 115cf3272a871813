import type { OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import { openDataFile } from "../../sqlite.ts";

/** A registered client: what /register answered (without the secret) and the secret's hash. */
export interface StoredClient {
  info: Omit<OAuthClientInformationFull, "client_secret">;
  /** SHA-256 of the client secret; null for public clients (token_endpoint_auth_method "none"). */
  secretHash: Uint8Array | null;
}

/** What a person approved at /authorize; an authorization code carries it to /token. */
export interface Approval {
  clientId: string;
  redirectUri: string;
  /** Whether /authorize named the redirect_uri (then /token must repeat it, RFC 6749 §4.1.3). */
  redirectUriGiven: boolean;
  codeChallenge: string;
  resource: string;
  scope: string;
  keyId: string;
}

export interface StoredCode extends Approval {
  expiresAt: number;
  /** Set once the code was exchanged: the grant it started, revoked if the code comes back. */
  grantId: string | null;
}

/** A grant: one sign-in, and every access and refresh token descended from it (a token family). */
export interface Grant {
  id: string;
  clientId: string;
  keyId: string;
  scope: string;
  resource: string;
  revokedAt: number | null;
}

export interface StoredRefreshToken {
  grantId: string;
  expiresAt: number;
  usedAt: number | null;
}

/**
 * Where the built-in authorization server keeps its state: SQLite in DATA_DIR (`openOAuthStore`)
 * or Redis (`openRedisOAuthStore`). The "use once" operations are atomic in both, so two
 * processes racing for one code or refresh token cannot both win.
 */
/** A client that never got an authorization code (no completed sign-in) is deleted this long after registering. */
export const UNUSED_CLIENT_TTL_S = 86_400;

export interface OAuthStore {
  /** Stores a registration; it expires UNUSED_CLIENT_TTL_S after `client_id_issued_at` unless a code is issued to it. */
  insertClient(client: StoredClient): Promise<void>;
  /** The client, or undefined when unknown or expired unused (at `now`, Unix seconds), even if not yet deleted. */
  getClient(clientId: string, now: number): Promise<StoredClient | undefined>;
  /** Stores a code (and marks its client used, so it no longer expires). */
  insertCode(codeHash: Uint8Array, approval: Approval, expiresAt: number): Promise<void>;
  getCode(codeHash: Uint8Array): Promise<StoredCode | undefined>;
  /** Marks the code used and starts its grant (with a first refresh token, if any); false if someone used it first. */
  redeemCode(codeHash: Uint8Array, grant: Grant, refreshHash: Uint8Array | null, refreshExpiresAt: number, now: number): Promise<boolean>;
  getGrant(grantId: string): Promise<Grant | undefined>;
  revokeGrant(grantId: string, now: number): Promise<void>;
  getRefreshToken(tokenHash: Uint8Array): Promise<StoredRefreshToken | undefined>;
  /** Replaces a refresh token by its successor; false if it had been used already (then nothing changes). */
  rotateRefreshToken(oldHash: Uint8Array, newHash: Uint8Array, grantId: string, expiresAt: number, now: number): Promise<boolean>;
  /**
   * Drops what can no longer be used, and clients never used within UNUSED_CLIENT_TTL_S of registering.
   * Used codes stay a day so a late replay still revokes its grant.
   */
  deleteExpired(now: number): Promise<void>;
  close(): void;
}

/**
 * Clients, codes, grants and refresh tokens in `<dataDir>/auth.sqlite`, beside the API keys. Only
 * hashes of codes, refresh tokens and client secrets are stored. Times are Unix seconds. The
 * "use once" updates are conditional, so two processes racing for one code or token cannot both win.
 */
export function openOAuthStore(dataDir: string): OAuthStore {
  const db = openDataFile(dataDir, "auth.sqlite");
  db.run(SCHEMA);
  // Before client expiry, a client row had no used_at: those clients are kept (counted as used).
  if (!db.query<{ name: string }, []>("PRAGMA table_info(oauth_clients)").all().some((column) => column.name === "used_at")) {
    db.run("ALTER TABLE oauth_clients ADD COLUMN used_at INTEGER");
    db.run("UPDATE oauth_clients SET used_at = created_at");
  }
  db.run("CREATE INDEX IF NOT EXISTS oauth_clients_unused ON oauth_clients (created_at) WHERE used_at IS NULL");
  const clientById = db.query<{ info: string; secret_hash: Uint8Array | null }, [string, number]>(
    "SELECT info, secret_hash FROM oauth_clients WHERE client_id = ? AND (used_at IS NOT NULL OR created_at >= ?)",
  );
  const codeByHash = db.query<StoredCode, [Uint8Array]>(
    `SELECT client_id AS clientId, redirect_uri AS redirectUri, redirect_uri_given AS redirectUriGiven,
      code_challenge AS codeChallenge, resource, scope, key_id AS keyId, expires_at AS expiresAt, grant_id AS grantId
     FROM oauth_codes WHERE code_hash = ?`,
  );
  const grantById = db.query<Grant, [string]>(
    `SELECT id, client_id AS clientId, key_id AS keyId, scope, resource, revoked_at AS revokedAt
     FROM oauth_grants WHERE id = ?`,
  );
  const refreshByHash = db.query<StoredRefreshToken, [Uint8Array]>(
    "SELECT grant_id AS grantId, expires_at AS expiresAt, used_at AS usedAt FROM oauth_refresh_tokens WHERE token_hash = ?",
  );
  const insertRefresh = db.query("INSERT INTO oauth_refresh_tokens (token_hash, grant_id, expires_at) VALUES (?, ?, ?)");
  const redeem = db.transaction((codeHash: Uint8Array, grant: Grant, refreshHash: Uint8Array | null, refreshExpiresAt: number, now: number) => {
    const claimed = db.query("UPDATE oauth_codes SET grant_id = ? WHERE code_hash = ? AND grant_id IS NULL").run(grant.id, codeHash);
    if (claimed.changes === 0) return false;
    db.query(
      "INSERT INTO oauth_grants (id, client_id, key_id, scope, resource, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(grant.id, grant.clientId, grant.keyId, grant.scope, grant.resource, now);
    if (refreshHash !== null) insertRefresh.run(refreshHash, grant.id, refreshExpiresAt);
    return true;
  });
  const rotate = db.transaction((oldHash: Uint8Array, newHash: Uint8Array, grantId: string, expiresAt: number, now: number) => {
    const used = db.query("UPDATE oauth_refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL").run(now, oldHash);
    if (used.changes === 0) return false;
    insertRefresh.run(newHash, grantId, expiresAt);
    return true;
  });

  return {
    async insertClient(client) {
      db.query("INSERT INTO oauth_clients (client_id, info, secret_hash, created_at) VALUES (?, ?, ?, ?)").run(
        client.info.client_id, JSON.stringify(client.info), client.secretHash, client.info.client_id_issued_at ?? 0,
      );
    },

    async getClient(clientId, now) {
      const row = clientById.get(clientId, now - UNUSED_CLIENT_TTL_S);
      return row ? { info: JSON.parse(row.info), secretHash: row.secret_hash } : undefined;
    },

    async insertCode(codeHash, approval, expiresAt) {
      db.query(
        `INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, redirect_uri_given, code_challenge, resource, scope, key_id, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        codeHash, approval.clientId, approval.redirectUri, approval.redirectUriGiven ? 1 : 0,
        approval.codeChallenge, approval.resource, approval.scope, approval.keyId, expiresAt,
      );
      db.query("UPDATE oauth_clients SET used_at = ? WHERE client_id = ? AND used_at IS NULL").run(expiresAt, approval.clientId);
    },

    async getCode(codeHash) {
      const row = codeByHash.get(codeHash);
      return row ? { ...row, redirectUriGiven: Boolean(row.redirectUriGiven) } : undefined;
    },

    async redeemCode(codeHash, grant, refreshHash, refreshExpiresAt, now) {
      return redeem(codeHash, grant, refreshHash, refreshExpiresAt, now);
    },

    async getGrant(grantId) {
      return grantById.get(grantId) ?? undefined;
    },

    async revokeGrant(grantId, now) {
      db.query("UPDATE oauth_grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(now, grantId);
    },

    async getRefreshToken(tokenHash) {
      return refreshByHash.get(tokenHash) ?? undefined;
    },

    async rotateRefreshToken(oldHash, newHash, grantId, expiresAt, now) {
      return rotate(oldHash, newHash, grantId, expiresAt, now);
    },

    async deleteExpired(now) {
      db.query("DELETE FROM oauth_codes WHERE expires_at < ?").run(now - 86_400);
      db.query("DELETE FROM oauth_refresh_tokens WHERE expires_at < ?").run(now);
      db.query("DELETE FROM oauth_clients WHERE used_at IS NULL AND created_at < ?").run(now - UNUSED_CLIENT_TTL_S);
    },

    close: () => db.close(),
  };
}

// --- internal ---

const SCHEMA = `
CREATE TABLE IF NOT EXISTS oauth_clients (
  client_id TEXT PRIMARY KEY,
  info TEXT NOT NULL,
  secret_hash BLOB,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS oauth_codes (
  code_hash BLOB PRIMARY KEY,
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  redirect_uri_given INTEGER NOT NULL,
  code_challenge TEXT NOT NULL,
  resource TEXT NOT NULL,
  scope TEXT NOT NULL,
  key_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  grant_id TEXT
);
CREATE TABLE IF NOT EXISTS oauth_grants (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE TABLE IF NOT EXISTS oauth_refresh_tokens (
  token_hash BLOB PRIMARY KEY,
  grant_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_codes_expiry ON oauth_codes (expires_at);
CREATE INDEX IF NOT EXISTS oauth_refresh_tokens_expiry ON oauth_refresh_tokens (expires_at);
`;
