import { randomBytes } from "node:crypto";
import { savedConflict, type SavedSearchInput } from "../../shared/saved.ts";
import { randomSecret } from "../auth/secrets.ts";
import { openDataFile } from "../sqlite.ts";

/** A saved search as stored: its owner (a principal id), parameters, feed token and cursors (epoch ms). */
export interface SavedRecord {
  id: string;
  owner: string;
  name: string;
  params: Record<string, unknown>;
  feedToken: string;
  createdAt: string;
  /** First-load time up to which `new` checks returned postings. */
  cursor: number;
  webhook: { url: string; secret: string; cursor: number } | null;
}

/** What creating one needs beyond the input: where its cursors start, and the most one owner may keep. */
export interface CreateOptions {
  cursor: number;
  maxPerOwner: number;
  /** The webhook's signing secret, when the input has a webhook URL. */
  webhookSecret?: string;
}

/**
 * Where saved searches live: where the API keys live (SQLite in DATA_DIR, or Redis), so they survive
 * restarts and every server process and replica reads the same. A search of another owner is not
 * found by the owner-scoped calls. Cursor moves are compare-and-set: of two checks from one cursor,
 * one moves it and the other sees it moved.
 */
export interface SavedSearchStore {
  /** Throws CONFLICT when the owner already has `maxPerOwner`, or one of this name. */
  create(owner: string, input: SavedSearchInput, options: CreateOptions): Promise<SavedRecord>;
  list(owner: string): Promise<SavedRecord[]>;
  get(owner: string, id: string): Promise<SavedRecord | undefined>;
  /** False when the owner has none with this id. Its feed token dies with it. */
  remove(owner: string, id: string): Promise<boolean>;
  byFeedToken(token: string): Promise<SavedRecord | undefined>;
  /** A new feed token (the old one stops working); undefined when the owner has none with this id. */
  rotateFeedToken(owner: string, id: string): Promise<string | undefined>;
  /** Moves the `new` cursor (or the webhook's) from `from` to `to`; false when it was no longer at `from`. */
  advance(id: string, which: "poll" | "webhook", from: number, to: number): Promise<boolean>;
  /** Every saved search with a webhook (the deliveries after a load). */
  withWebhooks(): Promise<SavedRecord[]>;
  close(): void;
}

/** Saved searches in `<dataDir>/saved-searches.sqlite` (WAL: the CLI and several processes share it). */
export function openSavedSearchStore(dataDir: string): SavedSearchStore {
  const db = openDataFile(dataDir, "saved-searches.sqlite");
  db.run(`CREATE TABLE IF NOT EXISTS saved_searches (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    params TEXT NOT NULL,
    feed_token TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    cursor INTEGER NOT NULL,
    webhook_url TEXT,
    webhook_secret TEXT,
    webhook_cursor INTEGER,
    UNIQUE (owner, name)
  )`);
  const read = (row: Row | null) => (row ? fromRow(row) : undefined);
  const insert = db.transaction((record: SavedRecord, max: number) => {
    const count = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM saved_searches WHERE owner = ?").get(record.owner)!.n;
    if (count >= max) throw savedConflict(`at most ${max} saved searches per key; delete one first`);
    if (db.query("SELECT 1 FROM saved_searches WHERE owner = ? AND name = ?").get(record.owner, record.name)) throw nameTaken(record.name);
    db.query(`INSERT INTO saved_searches (id, owner, name, params, feed_token, created_at, cursor, webhook_url, webhook_secret, webhook_cursor)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      record.id, record.owner, record.name, JSON.stringify(record.params), record.feedToken, record.createdAt, record.cursor,
      record.webhook?.url ?? null, record.webhook?.secret ?? null, record.webhook?.cursor ?? null,
    );
  });

  return {
    async create(owner, input, options) {
      const record = newRecord(owner, input, options);
      insert.immediate(record, options.maxPerOwner);
      return record;
    },
    async list(owner) {
      return db.query<Row, [string]>("SELECT * FROM saved_searches WHERE owner = ? ORDER BY created_at, id").all(owner).map(fromRow);
    },
    async get(owner, id) {
      return read(db.query<Row, [string, string]>("SELECT * FROM saved_searches WHERE owner = ? AND id = ?").get(owner, id));
    },
    async remove(owner, id) {
      return db.query("DELETE FROM saved_searches WHERE owner = ? AND id = ?").run(owner, id).changes > 0;
    },
    async byFeedToken(token) {
      return read(db.query<Row, [string]>("SELECT * FROM saved_searches WHERE feed_token = ?").get(token));
    },
    async rotateFeedToken(owner, id) {
      const token = randomSecret();
      const changed = db.query("UPDATE saved_searches SET feed_token = ? WHERE owner = ? AND id = ?").run(token, owner, id).changes;
      return changed > 0 ? token : undefined;
    },
    async advance(id, which, from, to) {
      const column = which === "poll" ? "cursor" : "webhook_cursor";
      return db.query(`UPDATE saved_searches SET ${column} = ? WHERE id = ? AND ${column} = ?`).run(to, id, from).changes > 0;
    },
    async withWebhooks() {
      return db.query<Row, []>("SELECT * FROM saved_searches WHERE webhook_url IS NOT NULL ORDER BY id").all().map(fromRow);
    },
    close: () => db.close(),
  };
}

/** A fresh record: random id and feed token, cursors at `options.cursor`. */
export function newRecord(owner: string, input: SavedSearchInput, options: CreateOptions): SavedRecord {
  return {
    id: randomBytes(8).toString("hex"),
    owner,
    name: input.name,
    params: input.params,
    feedToken: randomSecret(),
    createdAt: new Date().toISOString(),
    cursor: options.cursor,
    webhook: input.webhookUrl === undefined ? null : { url: input.webhookUrl, secret: options.webhookSecret ?? randomSecret(), cursor: options.cursor },
  };
}

/** What ids and feed tokens look like (16 hex; 43 base64url characters): anything else is no saved search. */
export const SAVED_ID = /^[0-9a-f]{16}$/;
export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function nameTaken(name: string) {
  return savedConflict(`a saved search named ${JSON.stringify(name)} exists; choose another name or delete it first`);
}

// --- internal ---

interface Row {
  id: string;
  owner: string;
  name: string;
  params: string;
  feed_token: string;
  created_at: string;
  cursor: number;
  webhook_url: string | null;
  webhook_secret: string | null;
  webhook_cursor: number | null;
}

function fromRow(row: Row): SavedRecord {
  return {
    id: row.id,
    owner: row.owner,
    name: row.name,
    params: JSON.parse(row.params) as Record<string, unknown>,
    feedToken: row.feed_token,
    createdAt: row.created_at,
    cursor: row.cursor,
    webhook: row.webhook_url === null ? null : { url: row.webhook_url, secret: row.webhook_secret ?? "", cursor: row.webhook_cursor ?? row.cursor },
  };
}
