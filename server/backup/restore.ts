import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../shared/errors.ts";
import { SIGNING_KEY_FILE } from "../auth/oauth/key-ring-store.ts";
import { TABLE_NAME } from "../store/schema.ts";
import { inspectStore } from "../store/store.ts";
import { LOCK_FILE, WriteBusyError, writeLock } from "../store/write-lease.ts";
import { AUTH_DB, BACKUP_MANIFEST, type BackupManifest } from "./backup.ts";

/** What a backup holds beside its manifest; `--force` replaces exactly these in DATA_DIR. */
const ITEMS = [`${TABLE_NAME}.lance`, AUTH_DB, SIGNING_KEY_FILE, "term-stats.json"];
/** Left behind by the previous contents (WAL files of the old key store, an unfinished load, the old index's size). */
const STALE = [`${AUTH_DB}-wal`, `${AUTH_DB}-shm`, "load-pending", "vector-index.json"];

/**
 * Restores a folder written by `backupDataDir` into `dataDir`, which must be empty (a `models/`
 * folder is allowed) unless `force`, which replaces the table, key store, signing key and term
 * statistics there and leaves everything else. Stop servers on `dataDir` first. Each item is
 * copied beside its place and renamed into it; the restored table is opened and counted.
 * Throws AppError INVALID_PARAMETER for a folder that is no backup or a non-empty `dataDir`.
 */
export async function restoreDataDir(source: string, dataDir: string, options: { force?: boolean } = {}): Promise<BackupManifest> {
  const manifest = readManifest(source);
  const occupied = existsSync(dataDir) ? readdirSync(dataDir).filter((name) => name !== "models" && name !== LOCK_FILE) : [];
  if (occupied.length > 0 && !options.force) {
    throw new AppError("INVALID_PARAMETER", `${dataDir} is not empty (${occupied.slice(0, 4).join(", ")}${occupied.length > 4 ? ", …" : ""}); --force replaces its table, keys and signing key`);
  }
  mkdirSync(dataDir, { recursive: true });
  const lease = await writeLock({ uri: dataDir }).acquire({ what: "restore", wait: false }).catch((error: unknown) => {
    if (!(error instanceof WriteBusyError)) throw error;
    throw new AppError("INVALID_PARAMETER", `${dataDir}: ${error.message}; let it finish (and stop servers on it) before restoring`);
  });
  try {
    replaceItems(source, dataDir);
  } finally {
    await lease.release();
  }

  const store = await inspectStore({ uri: dataDir });
  try {
    const postings = await store?.count();
    if (postings !== manifest.table.postings) {
      throw new Error(`the restored table holds ${postings ?? "no"} postings, the backup says ${manifest.table.postings}`);
    }
  } finally {
    store?.close();
  }
  return manifest;
}

// --- internal ---

/** Copies each item beside its place and renames it in; removes what the previous contents left. */
function replaceItems(source: string, dataDir: string): void {
  for (const name of ITEMS) {
    const from = join(source, name);
    const to = join(dataDir, name);
    if (!existsSync(from)) continue;
    rmSync(`${to}.restoring`, { recursive: true, force: true });
    cpSync(from, `${to}.restoring`, { recursive: true });
    rmSync(to, { recursive: true, force: true });
    renameSync(`${to}.restoring`, to);
  }
  for (const name of STALE) rmSync(join(dataDir, name), { force: true });
}

function readManifest(source: string): BackupManifest {
  const path = join(source, BACKUP_MANIFEST);
  if (!existsSync(path)) throw new AppError("INVALID_PARAMETER", `${source} is not a backup (no ${BACKUP_MANIFEST}; an interrupted backup has none)`);
  const manifest = JSON.parse(readFileSync(path, "utf8")) as BackupManifest;
  if (manifest.format !== 1) throw new AppError("INVALID_PARAMETER", `${path}: unknown backup format ${String(manifest.format)}`);
  return manifest;
}
