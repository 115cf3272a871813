import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

/** Static imports and re-exports (not `import type`, which is erased) and dynamic imports of relative paths. */
const RELATIVE_IMPORTS = [
  /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/gm,
  /\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g,
];

/**
 * A hash of `entries` and every module they import through relative paths, transitively: what
 * decides the bytes an ingest writes. A table built under another fingerprint may lack a column or
 * an index the code now expects, so the evaluation rebuilds it; query-time modules that the ingest
 * never imports can change freely without a rebuild.
 */
export function codeFingerprint(root: string, entries: string[], extra: string[] = []): string {
  const seen = new Set<string>();
  const pending = entries.map((entry) => resolve(root, entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
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
