import ipaddr from "ipaddr.js";
import type { RateDecision, RateLimiter } from "./rate-limit.ts";

/** The window OAUTH_REGISTRATIONS_PER_HOUR counts over. */
export const REGISTRATION_WINDOW_MS = 3_600_000;

/**
 * Counts one client registration (`/register` needs no credentials) from `ip` on the service's one
 * limiter (memory or Redis, so replicas share it): `perHour` per address, a burst of `perHour` at
 * once, then one every hour / `perHour`. A refused attempt costs nothing.
 */
export function hitRegistrationLimit(limiter: RateLimiter, ip: string, perHour: number): Promise<RateDecision> {
  return limiter.hit(`register:${addressBucket(ip)}`, perHour, { periodMs: REGISTRATION_WINDOW_MS });
}

/**
 * What one "address" is for registration limits: an IPv4 address as is (also when written as
 * IPv4-mapped IPv6, `::ffff:192.0.2.1`), an IPv6 address by its /64 prefix, since one host or home
 * router is given a whole /64 and could otherwise register from 2^64 addresses. Anything that does
 * not parse (an odd X-Forwarded-For entry, "unknown") is its own bucket.
 */
export function addressBucket(ip: string): string {
  const text = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.IPv6.isValid(text)) return ip;
  const address = ipaddr.IPv6.parse(text);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${address.parts.slice(0, 4).map((word) => word.toString(16)).join(":")}::/64`;
}
