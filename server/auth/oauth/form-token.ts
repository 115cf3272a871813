import { createHmac } from "node:crypto";
import { sameBytes } from "../secrets.ts";

/** How long a sign-in form may stay open before it has to be reloaded. */
const FORM_LIFETIME_S = 15 * 60;

/**
 * The sign-in form's anti-forgery token: `<issued-at>.<HMAC>` over the authorization request's
 * fields and the base URL, keyed with a server secret. A form posted back must carry the token
 * minted for exactly those fields, so fields changed in transit or a request assembled elsewhere
 * are refused. Cross-site posting from a browser is refused by the Origin check in the route.
 */
export function mintFormToken(secret: Uint8Array, fields: Record<string, string>, base: string, now: number): string {
  return `${now}.${mac(secret, fields, base, now)}`;
}

/** Whether a token was minted by `mintFormToken` for these fields within the last 15 minutes. */
export function checkFormToken(
  secret: Uint8Array,
  token: string | undefined,
  fields: Record<string, string>,
  base: string,
  now: number,
): boolean {
  const match = token ? /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token) : null;
  if (!match) return false;
  const issuedAt = Number(match[1]);
  if (issuedAt > now + 60 || now - issuedAt > FORM_LIFETIME_S) return false;
  return sameBytes(Buffer.from(match[2]!), Buffer.from(mac(secret, fields, base, issuedAt)));
}

// --- internal ---

function mac(secret: Uint8Array, fields: Record<string, string>, base: string, issuedAt: number): string {
  const canonical = JSON.stringify([issuedAt, base, Object.entries(fields).sort(([a], [b]) => a.localeCompare(b))]);
  return createHmac("sha256", secret).update(canonical).digest("base64url");
}
