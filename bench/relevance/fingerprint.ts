import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Static imports and re-exports (not `import type`, which is erased) and dynamic imports of relative paths. */
const RELATIVE_IMPORTS = [
  /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/gm,
  /\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g,
];

/**
 * Modules that read data files at load with readFileSync, which the import scan cannot see → the
 * folder they read (relative to the root): reaching one hashes every file under that folder too.
 */
const READS_DATA: Record<string, string> = { "server/knowledge/knowledge.ts": "server/knowledge" };

/** The modules whose code decides what an ingest writes (the tables of the evaluation and the perf suite are rebuilt when they change). */
export const INGEST_MODULES = ["server/ingest/ingest.ts", "server/store/store.ts", "server/store/write.ts", "server/embedding/embedder.ts", "server/text/fold.ts"];

/**
 * A hash of `entries` and every module they import through relative paths, transitively, and of the
 * data files those modules read (READS_DATA): what decides the bytes an ingest writes. A table built
 * under another fingerprint may lack a column or an index the code now expects, so the evaluation
 * rebuilds it; query-time modules that the ingest never imports can change freely without a rebuild.
 */
export function codeFingerprint(root: string, entries: string[], extra: string[] = []): string {
  const seen = new Set<string>();
  const pending = entries.map((entry) => resolve(root, entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const data = READS_DATA[relative(root, file)];
    if (data !== undefined) for (const path of filesUnder(resolve(root, data))) if (!path.endsWith(".ts")) seen.add(path);
    const text = readFileSync(file, "utf8");
    for (const pattern of RELATIVE_IMPORTS) {
      for (const match of text.matchAll(pattern)) pending.push(resolve(dirname(file), match[1]!));
    }
  }
  const hash = createHash("sha256");
  for (const file of [...seen].sort()) hash.update(`${relative(root, file)}\0`).update(readFileSync(file)).update("\0");
  for (const value of extra) hash.update(`${value}\0`);
  return hash.digest("hex").slice(0, 16);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
