import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../shared/errors.ts";
import { SIGNING_KEY_FILE } from "../auth/oauth/key-ring-store.ts";
import { bytesUnder, sideFile } from "../store/table-location.ts";
import { TABLE_NAME } from "../store/schema.ts";
import { inspectStore } from "../store/store.ts";
import { TERM_STATS_FILE, writeTermStats } from "../store/term-stats.ts";
import { copyTableAt, isVanishedFile, removeDir, verifyTableCopy, type TableCopy } from "./table-snapshot.ts";

/** Written last into a backup folder: a folder without it is not a (complete) backup. */
export const BACKUP_MANIFEST = "backup.json";
export const AUTH_DB = "auth.sqlite";

export interface BackupManifest {
  format: 1;
  created_at: string;
  table: TableCopy;
  /** Active (not revoked) API keys in the copied key store; null without one. */
  api_keys: number | null;
  signing_key: boolean;
  bytes: number;
}

/** Attempts when a concurrent load's cleanup removes a version while it is being copied. */
const ATTEMPTS = 5;

/**
 * Writes a consistent copy of `dataDir` into the empty or missing folder `target`, while a server
 * or a load may be writing: the jobs table as of its latest committed version, `auth.sqlite`
 * through SQLite's `VACUUM INTO` (a transactionally consistent snapshot), the OAuth signing key,
 * and term statistics recounted from that same table version. `models/` is not copied (the offline
 * model is rebuilt on demand). Throws AppError INVALID_PARAMETER for a non-empty `target` or a
 * DATA_DIR without a table.
 */
export async function backupDataDir(dataDir: string, target: string): Promise<BackupManifest> {
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new AppError("INVALID_PARAMETER", `${target} is not empty; back up into a new or empty folder`);
  }
  const store = await inspectStore({ uri: dataDir });
  if (!store) throw new AppError("INVALID_PARAMETER", `${dataDir} holds no jobs table to back up`);
  mkdirSync(target, { recursive: true });
  try {
    const table = await snapshotTable(store.table, join(dataDir, `${TABLE_NAME}.lance`), target);
    await writeTermStats(store.table, sideFile({ uri: target }, TERM_STATS_FILE));
    const apiKeys = backupKeyStore(dataDir, target);
    const signingKey = existsSync(join(dataDir, SIGNING_KEY_FILE));
    if (signingKey) copyFileSync(join(dataDir, SIGNING_KEY_FILE), join(target, SIGNING_KEY_FILE));
    const manifest: BackupManifest = {
      format: 1, created_at: new Date().toISOString(), table, api_keys: apiKeys, signing_key: signingKey, bytes: 0,
    };
    manifest.bytes = await bytesUnder({ uri: target }, ".");
    writeFileSync(join(target, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } catch (error) {
    removeDir(target);
    throw error;
  } finally {
    store.close();
  }
}

// --- internal ---

type LanceTable = NonNullable<Awaited<ReturnType<typeof inspectStore>>>["table"];

/** Pins the latest version, copies it, verifies the copy; starts over at the newest version when a file vanished. */
async function snapshotTable(table: LanceTable, source: string, target: string): Promise<TableCopy> {
  const copyDir = join(target, `${TABLE_NAME}.lance`);
  for (let attempt = 1; ; attempt++) {
    await table.checkoutLatest();
    const version = await table.version();
    await table.checkout(version); // term statistics and the row count read this same version
    const postings = await table.countRows();
    try {
      const copied = copyTableAt(source, copyDir, version);
      await verifyTableCopy(target, TABLE_NAME, postings);
      return { ...copied, postings };
    } catch (error) {
      removeDir(copyDir);
      if (attempt >= ATTEMPTS || !isVanishedFile(error)) throw error;
    }
  }
}

/** A consistent copy of the key store (API keys, OAuth clients and grants); the number of active keys. */
function backupKeyStore(dataDir: string, target: string): number | null {
  const path = join(dataDir, AUTH_DB);
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly: true });
  try {
    db.run("PRAGMA busy_timeout = 5000");
    db.run(`VACUUM INTO '${join(target, AUTH_DB).replaceAll("'", "''")}'`);
  } finally {
    db.close();
  }
  const copy = new Database(join(target, AUTH_DB), { readonly: true });
  try {
    return copy.query<{ n: number }, []>("SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL").get()?.n ?? 0;
  } finally {
    copy.close();
  }
}
