import { AppError } from "../../shared/errors.ts";
import type { KeyStore } from "./api-keys.ts";
import { principalFromKey, type Principal } from "./principal.ts";

/** The principal of a valid `x-api-key` header; AUTH_INVALID_KEY (403) when missing, unknown or revoked. */
export async function requireApiKey(keys: KeyStore, headerValue: string | null | undefined): Promise<Principal> {
  const info = headerValue ? await keys.verify(headerValue) : undefined;
  if (!info) throw new AppError("AUTH_INVALID_KEY", "Invalid API key");
  return principalFromKey(info);
}
