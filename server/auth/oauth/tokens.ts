import {
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
  UnauthorizedClientError,
  UnsupportedGrantTypeError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { SignJWT } from "jose";
import { mcpResourceUrl } from "../../http/base-url.ts";
import type { Config } from "../../config.ts";
import type { KeyStore } from "../api-keys.ts";
import { authenticateClient } from "./clients.ts";
import { hashSecret, randomSecret } from "../secrets.ts";
import { nowSeconds, pkceMatches } from "./secrets.ts";
import { SIGNING_ALG, type SigningKeys } from "./signing-key.ts";
import type { Grant, OAuthStore, StoredClient } from "./store.ts";

/** What the built-in authorization server works with. `now` is injectable for tests of expiry. */
export interface BuiltInContext {
  store: OAuthStore;
  keys: KeyStore;
  signingKeys: SigningKeys;
  config: Config;
  now: () => number;
}

/**
 * The token endpoint (RFC 6749 §4.1.3, §6): authorization_code with PKCE, and refresh_token with
 * rotation. A code or refresh token presented a second time revokes its whole grant, since one
 * of the two presenters stole it. Throws SDK OAuth errors (invalid_grant, invalid_client, …).
 */
export async function exchangeToken(
  ctx: BuiltInContext,
  params: Record<string, string>,
  authorization: string | null,
  base: string,
): Promise<OAuthTokens> {
  const grantType = params.grant_type;
  if (!grantType) throw new InvalidRequestError("grant_type is missing");
  if (grantType !== "authorization_code" && grantType !== "refresh_token") {
    throw new UnsupportedGrantTypeError(`grant_type ${grantType} is not supported`);
  }
  if (params.resource !== undefined && params.resource !== mcpResourceUrl(base)) {
    throw new InvalidTargetError(`resource must be ${mcpResourceUrl(base)}`);
  }
  const client = await authenticateClient(ctx.store, params, authorization, nowSeconds(ctx.now));
  return grantType === "authorization_code"
    ? redeemCode(ctx, params, client, base)
    : refresh(ctx, params, client, base);
}

/**
 * RFC 7009 revocation: a refresh token or an access token of ours revokes its grant, so every
 * token of that sign-in stops working. Unknown tokens and other clients' tokens are ignored, as
 * the RFC asks. Throws invalid_client for wrong client credentials.
 */
export async function revokeToken(
  ctx: BuiltInContext,
  params: Record<string, string>,
  authorization: string | null,
  grantOfAccessToken: (token: string) => Promise<string | undefined>,
): Promise<void> {
  if (!params.token) throw new InvalidRequestError("token is missing");
  const client = await authenticateClient(ctx.store, params, authorization, nowSeconds(ctx.now));
  const grantId = (await ctx.store.getRefreshToken(hashSecret(params.token)))?.grantId ?? (await grantOfAccessToken(params.token));
  const grant = grantId === undefined ? undefined : await ctx.store.getGrant(grantId);
  if (grant && (!client || client.info.client_id === grant.clientId)) await ctx.store.revokeGrant(grant.id, nowSeconds(ctx.now));
}

// --- internal ---

async function redeemCode(ctx: BuiltInContext, params: Record<string, string>, authenticated: StoredClient | undefined, base: string) {
  if (!params.code) throw new InvalidRequestError("code is missing");
  if (!params.code_verifier) throw new InvalidRequestError("code_verifier is missing (PKCE)");
  const now = nowSeconds(ctx.now);
  const codeHash = hashSecret(params.code);
  const code = await ctx.store.getCode(codeHash);
  if (!code) throw new InvalidGrantError("unknown authorization code");
  if (code.grantId !== null) {
    await ctx.store.revokeGrant(code.grantId, now);
    throw new InvalidGrantError("authorization code was already used; the tokens issued for it are revoked");
  }
  if (code.expiresAt <= now) throw new InvalidGrantError("authorization code expired");
  const client = await clientOf(ctx, authenticated, code.clientId);
  if (code.redirectUriGiven ? params.redirect_uri !== code.redirectUri : params.redirect_uri !== undefined && params.redirect_uri !== code.redirectUri) {
    throw new InvalidGrantError("redirect_uri differs from the authorization request");
  }
  if (!pkceMatches(params.code_verifier, code.codeChallenge)) throw new InvalidGrantError("code_verifier does not match the code_challenge");
  if (code.resource !== mcpResourceUrl(base)) throw new InvalidGrantError("the code was issued for another resource");
  if (!(await ctx.keys.getActive(code.keyId))) throw new InvalidGrantError("the API key used to sign in was revoked");

  const grant: Grant = {
    id: crypto.randomUUID(), clientId: code.clientId, keyId: code.keyId, scope: code.scope, resource: code.resource, revokedAt: null,
  };
  const refreshToken = client.info.grant_types?.includes("refresh_token") ? randomSecret() : undefined;
  const refreshExpiresAt = now + ctx.config.oauth.refreshTokenTtlSeconds;
  if (!(await ctx.store.redeemCode(codeHash, grant, refreshToken === undefined ? null : hashSecret(refreshToken), refreshExpiresAt, now))) {
    throw new InvalidGrantError("authorization code was already used");
  }
  return tokenResponse(ctx, grant, refreshToken, base);
}

async function refresh(ctx: BuiltInContext, params: Record<string, string>, authenticated: StoredClient | undefined, base: string) {
  if (!params.refresh_token) throw new InvalidRequestError("refresh_token is missing");
  const now = nowSeconds(ctx.now);
  const oldHash = hashSecret(params.refresh_token);
  const stored = await ctx.store.getRefreshToken(oldHash);
  const grant = stored && (await ctx.store.getGrant(stored.grantId));
  if (!stored || !grant || grant.revokedAt !== null) throw new InvalidGrantError("unknown or revoked refresh token");
  const client = await clientOf(ctx, authenticated, grant.clientId);
  if (!client.info.grant_types?.includes("refresh_token")) throw new UnauthorizedClientError("client did not register for refresh_token");
  if (stored.usedAt !== null) {
    await ctx.store.revokeGrant(grant.id, now);
    throw new InvalidGrantError("refresh token was already used; its whole token family is revoked");
  }
  if (stored.expiresAt <= now) throw new InvalidGrantError("refresh token expired");
  if (!(await ctx.keys.getActive(grant.keyId))) {
    await ctx.store.revokeGrant(grant.id, now);
    throw new InvalidGrantError("the API key used to sign in was revoked");
  }
  const refreshToken = randomSecret();
  const rotated = await ctx.store.rotateRefreshToken(oldHash, hashSecret(refreshToken), grant.id, now + ctx.config.oauth.refreshTokenTtlSeconds, now);
  if (!rotated) {
    await ctx.store.revokeGrant(grant.id, now);
    throw new InvalidGrantError("refresh token was already used; its whole token family is revoked");
  }
  return tokenResponse(ctx, grant, refreshToken, base);
}

/** The client a grant belongs to: the authenticated one, or, when none authenticated, a public owner. */
async function clientOf(ctx: BuiltInContext, authenticated: StoredClient | undefined, ownerId: string): Promise<StoredClient> {
  if (authenticated) {
    if (authenticated.info.client_id !== ownerId) throw new InvalidGrantError("the grant belongs to another client");
    return authenticated;
  }
  const owner = await ctx.store.getClient(ownerId, nowSeconds(ctx.now));
  if (!owner) throw new InvalidGrantError("the client of this grant no longer exists");
  if (owner.secretHash !== null) throw new InvalidClientError("client authentication required");
  // RFC 6749 §4.1.3, OAuth 2.1 §4.3.1: a public client names itself, so a stolen code alone is not enough.
  throw new InvalidRequestError("client_id is missing: a public client sends its client_id");
}

async function tokenResponse(ctx: BuiltInContext, grant: Grant, refreshToken: string | undefined, base: string): Promise<OAuthTokens> {
  const ttl = ctx.config.oauth.accessTokenTtlSeconds;
  const issuedAt = nowSeconds(ctx.now);
  const signingKey = ctx.signingKeys.current();
  const accessToken = await new SignJWT({ client_id: grant.clientId, scope: grant.scope, sid: grant.id })
    .setProtectedHeader({ alg: SIGNING_ALG, kid: signingKey.kid, typ: "at+jwt" })
    .setIssuer(base)
    .setAudience(mcpResourceUrl(base))
    .setSubject(grant.keyId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttl)
    .setJti(crypto.randomUUID())
    .sign(signingKey.privateKey);
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ttl,
    scope: grant.scope,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
  };
}
