import type { RedisClient } from "bun";
import { defineScript, runScript } from "../../redis.ts";
import { UNUSED_CLIENT_TTL_S, type Grant, type OAuthStore, type StoredClient, type StoredCode, type StoredRefreshToken } from "./store.ts";

/**
 * The OAuth state in Redis, shared by every server process: clients (`<prefix>client:<id>`, JSON),
 * codes, grants and refresh tokens (hashes keyed by the SHA-256 of the secret, never the secret).
 * Codes, refresh tokens and grants expire by themselves (a used code after a day, so a late replay
 * still revokes its grant; a grant once its last refresh token and access token can no longer be
 * used), so `deleteExpired` has nothing to do. Redeeming a code and rotating a refresh token are
 * single Lua scripts: of two processes racing, exactly one wins. Redis errors reject.
 */
export function openRedisOAuthStore(
  redis: RedisClient,
  options: { accessTokenTtlSeconds: number; prefix?: string; ownsClient?: boolean },
): OAuthStore {
  const { accessTokenTtlSeconds, prefix = "jobsearch:oauth:", ownsClient = true } = options;
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
  const clientKey = (id: string) => `${prefix}client:${id}`;
  const codeKey = (hash: Uint8Array) => `${prefix}code:${hex(hash)}`;
  const grantKey = (id: string) => `${prefix}grant:${id}`;
  const refreshKey = (hash: Uint8Array) => `${prefix}refresh:${hex(hash)}`;
  const hgetall = async (key: string) => {
    const hash = (await redis.send("HGETALL", [key])) as Record<string, string> | null;
    return hash && Object.keys(hash).length > 0 ? hash : undefined;
  };
  // A grant outlives its newest refresh token by one access-token lifetime.
  const grantExpiry = (refreshExpiresAt: number) => String(refreshExpiresAt + accessTokenTtlSeconds);

  return {
    async insertClient(client) {
      const stored = { info: client.info, secretHash: client.secretHash === null ? null : hex(client.secretHash) };
      // Expires unless a code is issued to it (insertCode makes it permanent). The time is the
      // registration's own clock, as every other expiry here; one already past stores nothing.
      const expiresAt = (client.info.client_id_issued_at ?? Math.floor(Date.now() / 1000)) + UNUSED_CLIENT_TTL_S;
      await redis.send("SET", [clientKey(client.info.client_id), JSON.stringify(stored), "NX", "EXAT", String(expiresAt)]);
    },

    async getClient(clientId) {
      // An unused client's key expires by itself (insertClient).
      const text = (await redis.send("GET", [clientKey(clientId)])) as string | null;
      if (text === null) return undefined;
      const stored = JSON.parse(text) as { info: StoredClient["info"]; secretHash: string | null };
      return { info: stored.info, secretHash: stored.secretHash === null ? null : Buffer.from(stored.secretHash, "hex") };
    },

    async insertCode(codeHash, approval, expiresAt) {
      const key = codeKey(codeHash);
      await runScript(redis, INSERT_CODE, [key], [
        String(expiresAt + USED_CODE_KEPT_S),
        "client_id", approval.clientId, "redirect_uri", approval.redirectUri, "redirect_uri_given", approval.redirectUriGiven ? "1" : "0",
        "code_challenge", approval.codeChallenge, "resource", approval.resource, "scope", approval.scope,
        "key_id", approval.keyId, "expires_at", String(expiresAt),
      ]);
      await redis.send("PERSIST", [clientKey(approval.clientId)]);
    },

    async getCode(codeHash) {
      const h = await hgetall(codeKey(codeHash));
      if (!h) return undefined;
      const code: StoredCode = {
        clientId: h.client_id!, redirectUri: h.redirect_uri!, redirectUriGiven: h.redirect_uri_given === "1",
        codeChallenge: h.code_challenge!, resource: h.resource!, scope: h.scope!, keyId: h.key_id!,
        expiresAt: Number(h.expires_at), grantId: h.grant_id ?? null,
      };
      return code;
    },

    async redeemCode(codeHash, grant, refreshHash, refreshExpiresAt, now) {
      const won = await runScript(
        redis, REDEEM,
        [codeKey(codeHash), grantKey(grant.id), refreshHash === null ? `${prefix}none` : refreshKey(refreshHash)],
        [grant.id, grant.clientId, grant.keyId, grant.scope, grant.resource, String(now), grantExpiry(refreshExpiresAt),
          refreshHash === null ? "0" : "1", String(refreshExpiresAt)],
      );
      return won === 1;
    },

    async getGrant(grantId) {
      const h = await hgetall(grantKey(grantId));
      if (!h) return undefined;
      const grant: Grant = {
        id: grantId, clientId: h.client_id!, keyId: h.key_id!, scope: h.scope!, resource: h.resource!,
        revokedAt: h.revoked_at === undefined ? null : Number(h.revoked_at),
      };
      return grant;
    },

    async revokeGrant(grantId, now) {
      await runScript(redis, REVOKE_GRANT, [grantKey(grantId)], [String(now)]);
    },

    async getRefreshToken(tokenHash) {
      const h = await hgetall(refreshKey(tokenHash));
      if (!h) return undefined;
      const token: StoredRefreshToken = {
        grantId: h.grant_id!, expiresAt: Number(h.expires_at), usedAt: h.used_at === undefined ? null : Number(h.used_at),
      };
      return token;
    },

    async rotateRefreshToken(oldHash, newHash, grantId, expiresAt, now) {
      const won = await runScript(redis, ROTATE, [refreshKey(oldHash), refreshKey(newHash), grantKey(grantId)], [
        String(now), grantId, String(expiresAt), grantExpiry(expiresAt),
      ]);
      return won === 1;
    },

    async deleteExpired() {
      // Every key carries its own expiry.
    },

    close() {
      if (ownsClient) redis.close();
    },
  };
}

// --- internal ---

/** A used code is kept this long past its expiry, so a replay still finds (and revokes) its grant. */
const USED_CODE_KEPT_S = 86_400;

// KEYS[1] code; ARGV[1] expire at (Unix s), then field/value pairs.
const INSERT_CODE = defineScript(`
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIREAT', KEYS[1], ARGV[1])
return 1
`);

// KEYS code, grant, refresh token; ARGV grant id, client, key, scope, resource, now, grant expiry,
// "1" when there is a refresh token, its expiry. 0 when the code is unknown or was used.
const REDEEM = defineScript(`
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'grant_id') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'grant_id', ARGV[1])
redis.call('HSET', KEYS[2], 'client_id', ARGV[2], 'key_id', ARGV[3], 'scope', ARGV[4], 'resource', ARGV[5], 'created_at', ARGV[6])
redis.call('EXPIREAT', KEYS[2], ARGV[7])
if ARGV[8] == '1' then
  redis.call('HSET', KEYS[3], 'grant_id', ARGV[1], 'expires_at', ARGV[9])
  redis.call('EXPIREAT', KEYS[3], ARGV[9])
end
return 1
`);

// KEYS[1] grant; ARGV[1] now. Revokes once; the first revocation time stays.
const REVOKE_GRANT = defineScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSETNX', KEYS[1], 'revoked_at', ARGV[1]) end
return 1
`);

// KEYS old token, new token, grant; ARGV now, grant id, new expiry, grant expiry.
// 0 when the old token is unknown or was used already (nothing changes then).
const ROTATE = defineScript(`
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'used_at') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'used_at', ARGV[1])
redis.call('HSET', KEYS[2], 'grant_id', ARGV[2], 'expires_at', ARGV[3])
redis.call('EXPIREAT', KEYS[2], ARGV[3])
if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('EXPIREAT', KEYS[3], ARGV[4]) end
return 1
`);
