import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A fresh 256-bit secret, base64url: API key secrets, codes, refresh tokens, client secrets, grant ids. */
export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** What a store keeps instead of a secret: the secret alone must not let anyone in. */
export function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret).digest();
}

/** Constant-time comparison of two byte strings of possibly different lengths. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
