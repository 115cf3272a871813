/**
 * The address a request came from, for limits keyed by client (failed sign-ins). With
 * `trustProxy` = 0 only the socket counts: X-Forwarded-For is whatever the client wrote. Behind
 * N proxies that each append the address they saw, the client is the N-th entry from the right
 * (entries further left were written by the client and are ignored); with fewer entries than N,
 * the leftmost one.
 */
export function clientIp(request: Request, socketAddress: string | undefined, trustProxy: number): string {
  const socket = socketAddress ?? "unknown";
  if (trustProxy === 0) return socket;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (forwarded.length === 0) return socket;
  return forwarded[Math.max(0, forwarded.length - trustProxy)]!;
}
