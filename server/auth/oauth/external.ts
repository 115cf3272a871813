import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import { mcpResourceUrl } from "../../http/base-url.ts";
import type { Config } from "../../config.ts";
import type { Principal } from "../principal.ts";
import { describeJoseError } from "./verify.ts";

type ExternalIssuer = NonNullable<Config["oauth"]["external"]>;

/**
 * A verifier for tokens of an external issuer (OAUTH_ISSUER): JWTs checked against its JWKS
 * (OAUTH_JWKS_URL, or `jwks_uri` from its RFC 8414 / OpenID metadata, discovered on first use and
 * retried after a failure), its issuer, and the audience (OAUTH_AUDIENCE or `<base>/mcp`).
 * The principal is `oauth:<issuer>#<sub>`. Every failure throws the SDK's InvalidTokenError.
 */
export function createExternalVerifier(issuer: ExternalIssuer, now: () => number) {
  let keySet: Promise<{ jwks: JWTVerifyGetKey; issuers: string[] }> | undefined;
  const load = () => {
    keySet ??= discover(issuer).catch((error) => {
      keySet = undefined;
      throw error;
    });
    return keySet;
  };

  return async function verifyExternalToken(token: string, base: string): Promise<Principal> {
    let trusted: Awaited<ReturnType<typeof load>>;
    try {
      trusted = await load();
    } catch {
      throw new InvalidTokenError("cannot reach the token issuer's keys");
    }
    let sub: unknown;
    let clientId: unknown;
    try {
      const { payload } = await jwtVerify(token, trusted.jwks, {
        issuer: trusted.issuers,
        audience: issuer.audience ?? mcpResourceUrl(base),
        requiredClaims: ["exp", "sub"],
        currentDate: new Date(now()),
      });
      sub = payload.sub;
      clientId = payload.client_id ?? payload.azp;
    } catch (error) {
      throw new InvalidTokenError(describeJoseError(error));
    }
    if (typeof sub !== "string" || sub === "") throw new InvalidTokenError("token has no subject");
    return {
      id: `oauth:${issuer.issuer}#${sub}`,
      name: sub,
      rateLimit: null,
      via: "oauth",
      ...(typeof clientId === "string" ? { clientId } : {}),
    };
  };
}

// --- internal ---

/** Issuers are compared with and without a trailing slash: config strips it, some providers keep it. */
async function discover(issuer: ExternalIssuer): Promise<{ jwks: JWTVerifyGetKey; issuers: string[] }> {
  const issuers = [issuer.issuer, `${issuer.issuer}/`];
  if (issuer.jwksUrl) return { jwks: createRemoteJWKSet(new URL(issuer.jwksUrl)), issuers };
  for (const url of metadataUrls(issuer.issuer)) {
    const response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
    if (!response?.ok) continue;
    const metadata = (await response.json().catch(() => undefined)) as { issuer?: unknown; jwks_uri?: unknown } | undefined;
    if (typeof metadata?.jwks_uri !== "string") continue;
    if (typeof metadata.issuer === "string" && !issuers.includes(metadata.issuer)) {
      throw new Error(`${url} names issuer ${metadata.issuer}, not ${issuer.issuer}`);
    }
    return { jwks: createRemoteJWKSet(new URL(metadata.jwks_uri)), issuers };
  }
  throw new Error(`no metadata with a jwks_uri found for ${issuer.issuer}`);
}

/** RFC 8414 §3.1 (well-known inserted before the path), then the forms OpenID and others use. */
function metadataUrls(issuer: string): string[] {
  const { origin, pathname } = new URL(issuer);
  const path = pathname === "/" ? "" : pathname.replace(/\/+$/, "");
  return [
    ...new Set([
      `${origin}/.well-known/oauth-authorization-server${path}`,
      `${issuer}/.well-known/oauth-authorization-server`,
      `${issuer}/.well-known/openid-configuration`,
      `${origin}/.well-known/openid-configuration${path}`,
    ]),
  ];
}
