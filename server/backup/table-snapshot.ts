import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import * as lancedb from "@lancedb/lancedb";

export interface TableCopy {
  version: number;
  postings: number;
  files: number;
  bytes: number;
}

/**
 * Copies a Lance table folder as it was at `version`, while writers may go on. Lance never
 * changes a file once written, and a version exists once its manifest does: so every data, index
 * and deletion file is copied first and the one manifest last, and later manifests are left out.
 * Files a concurrent cleanup deletes mid-copy surface as ENOENT (see {@link isVanishedFile}).
 */
export function copyTableAt(source: string, target: string, version: number): Omit<TableCopy, "postings"> {
  let files = 0;
  let bytes = 0;
  const copy = (path: string) => {
    const to = join(target, relative(source, path));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(path, to);
    files++;
    bytes += statSync(to).size;
  };
  let manifest: string | undefined;
  for (const path of walk(source)) {
    const rel = relative(source, path);
    if (rel.startsWith("_versions/")) {
      if (manifestVersion(rel) === version) manifest = path;
      continue; // other manifests and the latest-version hint would name versions not copied
    }
    if (rel.startsWith("_transactions/") && Number(/^_transactions\/(\d+)-/.exec(rel)?.[1]) >= version) continue;
    copy(path);
  }
  if (manifest === undefined) throw Object.assign(new Error(`version ${version} has no manifest`), { code: "ENOENT" });
  copy(manifest);
  return { version, files, bytes };
}

/** Opens the copy and reads every fragment and index list, so a copy missing a file fails here. */
export async function verifyTableCopy(dir: string, tableName: string, expectedRows: number): Promise<void> {
  const db = await lancedb.connect(dir);
  try {
    const table = await db.openTable(tableName);
    let rows = 0;
    for await (const batch of table.query().select(["id"])) rows += batch.numRows;
    await table.listIndices();
    table.close();
    if (rows !== expectedRows) throw new Error(`the copy holds ${rows} rows, expected ${expectedRows}`);
  } finally {
    db.close();
  }
}

/** A file listed a moment ago is gone: a concurrent cleanup removed an old version. */
export function isVanishedFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT" || /not found|no such file/i.test(String((error as Error)?.message));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

// --- internal ---

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** Manifests are named u64::MAX − version (newest sorts first); older tables use the version itself. */
function manifestVersion(rel: string): number | undefined {
  const match = /^_versions\/(\d+)\.manifest$/.exec(rel);
  if (!match) return undefined;
  const n = BigInt(match[1]!);
  return Number(n > 2n ** 63n ? 2n ** 64n - 1n - n : n);
}
