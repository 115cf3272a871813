import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * A SQLite file of `dataDir` (the folder made when missing), opened as every store of ours opens one:
 * WAL, so that the CLI and several server processes share it, and a wait of up to 5 s on a lock
 * another holds.
 */
export function openDataFile(dataDir: string, name: string): Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, name), { create: true, strict: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA busy_timeout = 5000");
  return db;
}
