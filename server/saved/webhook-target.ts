import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { invalidParameter } from "../../shared/errors.ts";

/*
 * Where a webhook may be sent: http(s) only, and not to loopback, private, link-local or other
 * non-public addresses unless the operator allows them (WEBHOOK_ALLOW_PRIVATE), so a saved search
 * cannot make the server call its own network. Checked when the hook is registered and again before
 * each delivery (a name may resolve elsewhere later).
 */

/** Throws INVALID_PARAMETER naming why `url` may not be a webhook target. */
export async function checkWebhookTarget(url: string, allowPrivate: boolean): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw invalidParameter("webhook_url must be an http(s) URL");
  if (allowPrivate) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    throw invalidParameter(`webhook_url: the host ${JSON.stringify(host)} does not resolve`);
  }
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined) {
    throw invalidParameter(`webhook_url must reach a public address (${refused} is loopback or private; the operator may allow it with WEBHOOK_ALLOW_PRIVATE=true)`);
  }
}

/** Whether `address` (IPv4 or IPv6 text) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 4) return publicV4(address.split(".").map(Number));
  const v6 = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return publicV4(mapped[1]!.split(".").map(Number));
  if (v6 === "::" || v6 === "::1") return false;
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast, 2001:db8::/32 documentation.
  return !/^(f[cd]|fe[89ab]|ff)/.test(v6) && !v6.startsWith("2001:db8:") && !v6.startsWith("64:ff9b:");
}

// --- internal ---

function publicV4([a = 0, b = 0]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  if (a === 198 && (b === 18 || b === 19)) return false;
  return true;
}
