import { createHash } from "node:crypto";
import { sameBytes } from "../secrets.ts";

/** RFC 7636 §4.1: 43–128 characters from the unreserved set. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge is a base64url SHA-256: exactly 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isS256Challenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) equals the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = createHash("sha256").update(verifier).digest("base64url");
  return sameBytes(Buffer.from(computed), Buffer.from(challenge));
}

export function nowSeconds(now: () => number): number {
  return Math.floor(now() / 1000);
}
