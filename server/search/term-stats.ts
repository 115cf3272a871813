import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as lancedb from "@lancedb/lancedb";
import { splitRankTerms } from "./ranking.ts";

const FILE = "term-stats.json";
/** Words in fewer postings than this are rare enough to share the rarest weight (keeps the file small). */
const MIN_DF = 2;

/** How many postings use each word: what makes "internship" weigh more than "engineer" in a query. */
export interface TermStats {
  docs: number;
  df: Record<string, number>;
}

/** Inverse document frequency of a folded token: high for rare words, never below 0.1. */
export function idf(stats: TermStats | undefined, token: string): number {
  if (!stats || stats.docs === 0) return 1;
  const df = stats.df[token] ?? 0;
  return Math.max(0.1, Math.log((stats.docs + 1) / (df + 1)));
}

/**
 * Counts, over every posting's `rank_terms` (the words ranking reads), the postings each word
 * occurs in, and writes them to `<dataDir>/term-stats.json` (atomically). Run after every load.
 */
export async function writeTermStats(table: lancedb.Table, dataDir: string): Promise<TermStats> {
  const counts = new Map<string, number>();
  let docs = 0;
  for await (const batch of table.query().select(["rank_terms"])) {
    const column = batch.getChild("rank_terms")!;
    for (let i = 0; i < batch.numRows; i++) {
      docs++;
      for (const token of splitRankTerms(String(column.get(i))).text) counts.set(token, (counts.get(token) ?? 0) + 1);
    }
  }
  const df: Record<string, number> = {};
  for (const [token, n] of counts) if (n >= MIN_DF) df[token] = n;
  const stats = { docs, df };
  const path = join(dataDir, FILE);
  writeFileSync(`${path}.tmp`, JSON.stringify(stats));
  renameSync(`${path}.tmp`, path);
  return stats;
}

/**
 * The term statistics of `dataDir`, re-read when a load by another process rewrote them
 * (checked at most once a second). Undefined until a first load wrote them.
 */
export function termStatsReader(dataDir: string): () => TermStats | undefined {
  const path = join(dataDir, FILE);
  let cached: { mtimeMs: number; stats: TermStats } | undefined;
  let checkedAt = 0;
  return () => {
    const now = Date.now();
    if (cached && now - checkedAt < 1000) return cached.stats;
    checkedAt = now;
    if (!existsSync(path)) return cached?.stats;
    const { mtimeMs } = statSync(path);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, stats: JSON.parse(readFileSync(path, "utf8")) as TermStats };
    return cached.stats;
  };
}
