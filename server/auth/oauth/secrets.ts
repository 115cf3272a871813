import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A fresh 256-bit secret, base64url: codes, refresh tokens, client secrets, grant ids. */
export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps instead of a secret: the secret alone must not let anyone in. */
export function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret).digest();
}

/** Constant-time comparison of two byte strings of possibly different lengths. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

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
