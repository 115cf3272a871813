import { openDataFile } from "../sqlite.ts";

/** One webhook delivery: the new matches of one saved search over one cursor range, and how sending it went. */
export interface Delivery {
  /** `<saved id>.<since>.<cursor>`: the Idempotency-Key, the same on every attempt and for every process. */
  id: string;
  savedId: string;
  owner: string;
  url: string;
  since: number;
  cursor: number;
  /** The JSON body, fixed at creation (a retry sends the same bytes, newly signed). */
  body: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  /** Epoch ms of the next attempt (pending only). */
  nextAt: number;
  createdAt: number;
  deliveredAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
}

/**
 * The webhook outbox and delivery log, where the saved searches live (SQLite in DATA_DIR, or Redis):
 * a delivery is written before its range's cursor moves, so neither a receiver nor a server down
 * loses one; a restarted server sends what is pending. Adding the same id twice keeps the first.
 */
export interface Outbox {
  add(delivery: Delivery): Promise<void>;
  /** Pending deliveries due at `now`, oldest due first. */
  due(now: number, limit: number): Promise<Delivery[]>;
  /** The next attempt's time among pending deliveries, undefined when none. */
  nextDue(): Promise<number | undefined>;
  update(delivery: Delivery): Promise<void>;
  /** A delivery of this saved search starting at `since` (a range written before its cursor moved). */
  startingAt(savedId: string, since: number): Promise<Delivery | undefined>;
  /** The saved search's deliveries, newest first. */
  log(savedId: string, limit: number): Promise<Delivery[]>;
  pendingCount(): Promise<number>;
  /** Drops the saved search's deliveries (it was deleted). */
  forget(savedId: string): Promise<void>;
  close(): void;
}

/** Delivered or failed deliveries kept per saved search for its log. */
export const LOG_KEPT = 100;

/** The outbox in `<dataDir>/saved-searches.sqlite` beside the saved searches. */
export function openOutbox(dataDir: string): Outbox {
  const db = openDataFile(dataDir, "saved-searches.sqlite");
  db.run(`CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id TEXT PRIMARY KEY, saved_id TEXT NOT NULL, owner TEXT NOT NULL, url TEXT NOT NULL, since INTEGER NOT NULL, cursor INTEGER NOT NULL,
    body TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL, next_at INTEGER NOT NULL, created_at INTEGER NOT NULL,
    delivered_at INTEGER, last_status INTEGER, last_error TEXT
  )`);
  db.run("CREATE INDEX IF NOT EXISTS webhook_due ON webhook_deliveries (status, next_at)");
  db.run("CREATE INDEX IF NOT EXISTS webhook_log ON webhook_deliveries (saved_id, created_at)");
  const all = (sql: string, ...params: Array<string | number>) => db.query<Row, Array<string | number>>(sql).all(...params).map(fromRow);
  const prune = db.query(`DELETE FROM webhook_deliveries WHERE saved_id = ? AND status != 'pending' AND id NOT IN (
    SELECT id FROM webhook_deliveries WHERE saved_id = ? AND status != 'pending' ORDER BY created_at DESC LIMIT ${LOG_KEPT})`);
  return {
    async add(d) {
      db.query(`INSERT OR IGNORE INTO webhook_deliveries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        d.id, d.savedId, d.owner, d.url, d.since, d.cursor, d.body, d.status, d.attempts, d.nextAt, d.createdAt, d.deliveredAt, d.lastStatus, d.lastError,
      );
    },
    async due(now, limit) {
      return all("SELECT * FROM webhook_deliveries WHERE status = 'pending' AND next_at <= ? ORDER BY next_at, id LIMIT ?", now, limit);
    },
    async nextDue() {
      return db.query<{ t: number | null }, []>("SELECT min(next_at) AS t FROM webhook_deliveries WHERE status = 'pending'").get()?.t ?? undefined;
    },
    async update(d) {
      db.query("UPDATE webhook_deliveries SET status = ?, attempts = ?, next_at = ?, delivered_at = ?, last_status = ?, last_error = ? WHERE id = ?").run(
        d.status, d.attempts, d.nextAt, d.deliveredAt, d.lastStatus, d.lastError, d.id,
      );
      if (d.status !== "pending") prune.run(d.savedId, d.savedId);
    },
    async startingAt(savedId, since) {
      return all("SELECT * FROM webhook_deliveries WHERE saved_id = ? AND since = ? LIMIT 1", savedId, since)[0];
    },
    async log(savedId, limit) {
      return all("SELECT * FROM webhook_deliveries WHERE saved_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", savedId, limit);
    },
    async pendingCount() {
      return db.query<{ n: number }, []>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'").get()!.n;
    },
    async forget(savedId) {
      db.query("DELETE FROM webhook_deliveries WHERE saved_id = ?").run(savedId);
    },
    close: () => db.close(),
  };
}

// --- internal ---

interface Row {
  id: string; saved_id: string; owner: string; url: string; since: number; cursor: number; body: string; status: Delivery["status"];
  attempts: number; next_at: number; created_at: number; delivered_at: number | null; last_status: number | null; last_error: string | null;
}

function fromRow(r: Row): Delivery {
  return {
    id: r.id, savedId: r.saved_id, owner: r.owner, url: r.url, since: r.since, cursor: r.cursor, body: r.body, status: r.status,
    attempts: r.attempts, nextAt: r.next_at, createdAt: r.created_at, deliveredAt: r.delivered_at, lastStatus: r.last_status, lastError: r.last_error,
  };
}
