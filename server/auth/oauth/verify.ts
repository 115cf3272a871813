import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { errors, jwtVerify, type JWTPayload } from "jose";
import { mcpResourceUrl } from "../../http/base-url.ts";
import { principalFromKey, type Principal } from "../principal.ts";
import { SIGNING_ALG, unknownKeyError } from "./signing-key.ts";
import type { BuiltInContext } from "./tokens.ts";

/**
 * Verifies an access token of the built-in server: signature, `iss` = base, `aud` = `<base>/mcp`,
 * expiry, a grant that was not revoked, and an API key (`sub`) that is still active, so revoking
 * the key or the grant cuts the token off at once. Throws the SDK's InvalidTokenError.
 */
export async function verifyBuiltInToken(ctx: BuiltInContext, token: string, base: string): Promise<Principal> {
  const payload = await verifySignedToken(ctx, token, base);
  const { sub, client_id: clientId, sid } = payload;
  if (typeof sub !== "string" || typeof clientId !== "string" || typeof sid !== "string") {
    throw new InvalidTokenError("token lacks sub, client_id or sid");
  }
  const grant = await ctx.store.getGrant(sid);
  if (!grant || grant.revokedAt !== null) throw new InvalidTokenError("token was revoked");
  const key = await ctx.keys.getActive(sub);
  if (!key) throw new InvalidTokenError("the API key behind this token was revoked");
  return principalFromKey(key, "oauth", clientId);
}

/** The grant a valid access token of ours belongs to; undefined for anything else (RFC 7009 ignores those). */
export async function grantOfAccessToken(ctx: BuiltInContext, token: string, base: string): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, publicKeyOf(ctx), {
      issuer: base, algorithms: [SIGNING_ALG], typ: "at+jwt", currentDate: new Date(ctx.now()),
    });
    return typeof payload.sid === "string" ? payload.sid : undefined;
  } catch {
    return undefined;
  }
}

/** A short reason for a token jose refused, safe to show the client. */
export function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "token expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "token was issued by another issuer";
    if (error.claim === "aud") return "token is for another audience";
    return `token claim ${error.claim} is invalid`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return "token signature is invalid";
  if (error instanceof errors.JWKSNoMatchingKey) return "token was signed with an unknown key";
  return "token is malformed or not signed by a trusted issuer";
}

// --- internal ---

/** Picks the ring's key by the token's kid (so tokens signed before a rotation still verify). */
function publicKeyOf(ctx: BuiltInContext) {
  return async (header: { kid?: string }) => {
    const key = await ctx.signingKeys.byKid(header.kid);
    if (!key) throw unknownKeyError();
    return key.publicKey;
  };
}

async function verifySignedToken(ctx: BuiltInContext, token: string, base: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, publicKeyOf(ctx), {
      issuer: base,
      audience: mcpResourceUrl(base),
      algorithms: [SIGNING_ALG],
      typ: "at+jwt",
      requiredClaims: ["exp", "sub"],
      currentDate: new Date(ctx.now()),
    });
    return payload;
  } catch (error) {
    throw new InvalidTokenError(describeJoseError(error));
  }
}
