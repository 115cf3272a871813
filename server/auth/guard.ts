import { AppError } from "../../shared/errors.ts";
import type { ApiKeyInfo, KeyStore } from "./api-keys.ts";

/** The key's record for a valid `x-api-key` header; AUTH_INVALID_KEY (403) when missing, unknown or revoked. */
export function requireApiKey(keys: KeyStore, headerValue: string | null | undefined): ApiKeyInfo {
  const info = headerValue ? keys.verify(headerValue) : undefined;
  if (!info) throw new AppError("AUTH_INVALID_KEY", "Invalid API key");
  return info;
}
