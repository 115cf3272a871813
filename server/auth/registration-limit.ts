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
  const words = ipv6Words(ip.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  if (!words) return ip;
  if (words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff) {
    return [words[6]! >> 8, words[6]! & 0xff, words[7]! >> 8, words[7]! & 0xff].join(".");
  }
  return `${words.slice(0, 4).map((word) => word.toString(16)).join(":")}::/64`;
}

// --- internal ---

const HEXTET = /^[0-9a-f]{1,4}$/i;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The eight 16-bit words of an IPv6 address (with `::` and a trailing dotted IPv4 allowed), or undefined. */
function ipv6Words(text: string): number[] | undefined {
  if (!text.includes(":")) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const parse = (half: string | undefined): number[] | undefined => {
    if (!half) return [];
    const words: number[] = [];
    const parts = half.split(":");
    for (const [index, part] of parts.entries()) {
      const v4 = index === parts.length - 1 ? IPV4.exec(part) : null;
      if (v4) {
        const bytes = v4.slice(1).map(Number);
        if (bytes.some((byte) => byte > 255)) return undefined;
        words.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
      } else if (HEXTET.test(part)) {
        words.push(Number.parseInt(part, 16));
      } else {
        return undefined;
      }
    }
    return words;
  };
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...Array<number>(missing).fill(0), ...tail] : undefined;
}
