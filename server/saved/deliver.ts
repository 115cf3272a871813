import { createHmac } from "node:crypto";
import type { Delivery } from "./outbox.ts";
import { checkWebhookTarget } from "./webhook-target.ts";

/*
 * One attempt at a webhook delivery: the body POSTed with its signature, timestamp and idempotency
 * key. The receiver checks `X-Jobsearch-Signature` = `sha256=` + hex HMAC-SHA256(secret,
 * `<X-Jobsearch-Timestamp>.<body>`) and drops a repeated `Idempotency-Key` (a retry, or an attempt
 * whose answer was lost, sends the same key). Redirects are not followed (a 3xx is a failure), at most
 * RESPONSE_MAX_BYTES of the answer are read, and the target is checked again before each attempt.
 */

export const RESPONSE_MAX_BYTES = 64 * 1024;

export interface Attempt {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** The signature header's value for `body` sent at `timestamp` (epoch seconds). */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** Sends `delivery` once; never throws. */
export async function attemptDelivery(delivery: Delivery, secret: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<Attempt> {
  try {
    await checkWebhookTarget(delivery.url, options.allowPrivate);
  } catch (error) {
    return { ok: false, status: null, error: (error as Error).message };
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await fetch(delivery.url, {
      method: "POST",
      redirect: "manual",
      signal,
      headers: {
        "content-type": "application/json",
        "user-agent": "jobsearch-webhook/1",
        "x-jobsearch-timestamp": String(timestamp),
        "x-jobsearch-signature": signature(secret, timestamp, delivery.body),
        "x-jobsearch-delivery": delivery.id,
        "idempotency-key": delivery.id,
      },
      body: delivery.body,
    });
    await drain(response);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, error: ok ? null : `answered HTTP ${response.status}` };
  } catch (error) {
    const timedOut = signal.aborted;
    return { ok: false, status: null, error: timedOut ? `no answer within ${options.timeoutMs} ms` : `cannot reach it: ${(error as Error).message}` };
  }
}

/** The wait before attempt `attempts + 1`: doubling from `baseMs`, at most an hour, ±25% jitter so retries spread. */
export function backoff(attempts: number, baseMs: number, random = Math.random): number {
  const plain = Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
  return Math.round(plain * (0.75 + random() * 0.5));
}

// --- internal ---

/** Reads at most RESPONSE_MAX_BYTES of the answer (so the connection can be reused) and drops the rest. */
async function drain(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read <= RESPONSE_MAX_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The answer's status is what counts; a body cut short changes nothing.
  }
}
