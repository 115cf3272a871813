import { formatCursor } from "../../shared/saved.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { SearchDeps } from "../search/search.ts";
import { attemptDelivery, backoff } from "./deliver.ts";
import type { SenderLease } from "./lease.ts";
import { newMatchesSince, type LoadTimes } from "./new-jobs.ts";
import type { Delivery, Outbox } from "./outbox.ts";
import type { SavedRecord, SavedSearchStore } from "./store.ts";

/*
 * Webhooks after each load. Every WEBHOOK_POLL_MS the process holding the sender lease (lease.ts)
 * looks at the table's version; on a new one (and once at start, for loads made while no server
 * ran) each saved search with a webhook gets its new matches since its webhook cursor written to the
 * outbox as one delivery, and only then its cursor moved (a crash between the two is repaired at the
 * next look: the delivery starting at the cursor moves it). Then every due delivery is attempted;
 * a failure is retried with exponential back-off until WEBHOOK_MAX_ATTEMPTS. At least once: a
 * delivery is marked delivered only after a 2xx, and its Idempotency-Key is the same on every attempt.
 */

export interface WebhookStats {
  delivered: number;
  retried: number;
  failed: number;
  pending: number;
}

export interface WebhookSender {
  /** Counts since start (and pending in the outbox, as last seen), for /metrics. */
  stats(): WebhookStats;
  /** One round now (tests and the loop). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export interface WebhookDeps extends SearchDeps {
  saved: SavedSearchStore;
  loads: LoadTimes;
  outbox: Outbox;
  lease: SenderLease;
  config: Config;
  log: Logger;
}

/** Deliveries attempted per round at most (the rest wait for the next round). */
const BATCH = 50;

export function startWebhooks(deps: WebhookDeps, pollMs: number): WebhookSender {
  const stats: WebhookStats = { delivered: 0, retried: 0, failed: 0, pending: 0 };
  const { webhooks } = deps.config.saved;
  let seenVersion: number | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const enqueue = async () => {
    for (const record of await deps.saved.withWebhooks()) {
      try {
        await enqueueOne(deps, record);
      } catch (error) {
        deps.log.warn("webhook matches not computed", { saved_search: record.id, error });
      }
    }
  };

  const send = async (delivery: Delivery) => {
    const record = await deps.saved.get(delivery.owner, delivery.savedId);
    if (!record?.webhook) {
      await deps.outbox.update({ ...delivery, status: "failed", lastError: "the saved search or its webhook was deleted" });
      return;
    }
    const attempt = await attemptDelivery(delivery, record.webhook.secret, webhooks);
    const attempts = delivery.attempts + 1;
    const now = Date.now();
    const common = { ...delivery, attempts, lastStatus: attempt.status, lastError: attempt.error };
    if (attempt.ok) {
      stats.delivered++;
      await deps.outbox.update({ ...common, status: "delivered", deliveredAt: now });
    } else if (attempts >= webhooks.maxAttempts) {
      stats.failed++;
      deps.log.warn("webhook delivery given up", { saved_search: delivery.savedId, delivery: delivery.id, attempts, error: attempt.error });
      await deps.outbox.update({ ...common, status: "failed" });
    } else {
      stats.retried++;
      await deps.outbox.update({ ...common, nextAt: now + backoff(attempts, webhooks.retryBaseMs) });
    }
  };

  const round = async () => {
    if (!(await deps.lease.hold())) return;
    const version = await deps.store.version();
    if (version !== seenVersion) {
      await enqueue();
      seenVersion = version;
    }
    for (const delivery of await deps.outbox.due(Date.now(), BATCH)) {
      if (stopped || !(await deps.lease.hold())) break;
      await send(delivery);
    }
    stats.pending = await deps.outbox.pendingCount();
  };

  const tick = () => {
    running = running.then(round).catch((error: unknown) => deps.log.warn("webhook round failed", { error }));
    return running;
  };
  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();
  void tick();

  return {
    stats: () => ({ ...stats }),
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await deps.lease.release().catch(() => {});
    },
  };
}

// --- internal ---

/** The new matches of one saved search into the outbox, then its webhook cursor moved past them. */
async function enqueueOne(deps: WebhookDeps, record: SavedRecord): Promise<void> {
  const since = record.webhook!.cursor;
  const written = await deps.outbox.startingAt(record.id, since);
  if (written) {
    await deps.saved.advance(record.id, "webhook", since, written.cursor);
    return;
  }
  const found = await newMatchesSince(deps, record, since);
  if (found.cursor === since) return;
  if (found.results.length > 0) {
    const id = `${record.id}.${since}.${found.cursor}`;
    const body = JSON.stringify({
      delivery_id: id,
      saved_search: { id: record.id, name: record.name },
      since: formatCursor(since),
      cursor: formatCursor(found.cursor),
      total: found.results.length,
      results: found.results,
    });
    const now = Date.now();
    await deps.outbox.add({
      id, savedId: record.id, owner: record.owner, url: record.webhook!.url, since, cursor: found.cursor, body,
      status: "pending", attempts: 0, nextAt: now, createdAt: now, deliveredAt: null, lastStatus: null, lastError: null,
    });
  }
  await deps.saved.advance(record.id, "webhook", since, found.cursor);
}
