import type * as lancedb from "@lancedb/lancedb";
import type { SideFile } from "./table-location.ts";
import { splitRankTerms } from "../text/rank-terms.ts";
import { foldedWords } from "../text/fold.ts";

/** The file's name beside the table. */
export const TERM_STATS_FILE = "term-stats.json";
/** Words in fewer postings than this are rare enough to share the rarest weight (keeps the file small). */
const MIN_DF = 2;

/** How many postings use each word: what makes "internship" weigh more than "engineer" in a query. */
export interface TermStats {
  docs: number;
  df: Record<string, number>;
  /** Folded words of company names and tags: names of the data that spelling correction never touches (absent in files of older loads). */
  names?: string[];
  /** How many postings use each word in their title (words of at least MIN_DF titles; absent in files of older loads). */
  titleDf?: Record<string, number>;
  /**
   * Adjacent words of titles ("front end", "data scienc") → the postings whose title has them side by
   * side: whether two words are a phrase of the data, for spelling's split and joined words (absent in
   * files of older loads).
   */
  pairs?: Record<string, number>;
}

/** Inverse document frequency of a folded token: high for rare words, never below 0.1. */
export function idf(stats: TermStats | undefined, token: string): number {
  if (!stats || stats.docs === 0) return 1;
  const df = stats.df[token] ?? 0;
  return Math.max(0.1, Math.log((stats.docs + 1) / (df + 1)));
}

/**
 * How much a folded word says of the job rather than of the request around it, in [0, 1]: the share
 * of the postings using it that have it in their title, against TITLE_SHARE_OF_JOB_WORDS (that share
 * or more weighs 1). Job and skill words recur in titles ("nurse", "python"); words of requests and
 * of lives ("please", "suggestions", "relocate") stay in descriptions. A word the statistics do not
 * know (too rare, or statistics of an older load) weighs 1: a rare word says much.
 */
export function jobWeight(stats: TermStats | undefined, token: string): number {
  const df = stats?.df[token];
  if (stats?.titleDf === undefined || df === undefined) return 1;
  return Math.min(1, (stats.titleDf[token] ?? 0) / df / TITLE_SHARE_OF_JOB_WORDS);
}

/** A word in at least this share of its postings' titles is a word of the job, whole. */
const TITLE_SHARE_OF_JOB_WORDS = 0.1;

/**
 * Counts, over every posting's `rank_terms` (the words ranking reads), the postings each word
 * occurs in, and writes them to `file` (`term-stats.json` beside the table, replaced whole). Run
 * after every load.
 */
export async function writeTermStats(table: lancedb.Table, file: SideFile): Promise<TermStats> {
  const counter = termCounter();
  for await (const batch of table.query().select(["rank_terms", "company_name", "tag_keys"])) {
    const column = batch.getChild("rank_terms")!;
    const companies = batch.getChild("company_name")!;
    const tags = batch.getChild("tag_keys")!;
    for (let i = 0; i < batch.numRows; i++) {
      counter.add({ rank_terms: String(column.get(i)), company_name: companies.get(i), tag_keys: tags.get(i)?.toArray() ?? [] });
    }
  }
  const stats = counter.stats();
  await file.write(JSON.stringify(stats));
  return stats;
}

/** What the statistics read of a stored posting (store/schema.ts StoredJob's columns). */
export interface TermRow {
  rank_terms: string;
  company_name: string | null;
  tag_keys: Iterable<string>;
}

/** The statistics {@link writeTermStats} writes, of rows at hand: the same counting, without a table. */
export function countTermStats(rows: Iterable<TermRow>): TermStats {
  const counter = termCounter();
  for (const row of rows) counter.add(row);
  return counter.stats();
}

export interface TermStatsReader {
  /** The latest statistics seen; undefined until a first load wrote them. Never waits. */
  get(): TermStats | undefined;
  /** Looks at the file now (re-reading it only when its tag changed). */
  refresh(): Promise<void>;
  /**
   * Takes statistics this process just wrote, without reading them back; `tag`: the file's after the write,
   * so the next look does not read them again (a new object would start every cache keyed on them afresh).
   */
  set(stats: TermStats, tag?: string): void;
}

/**
 * The term statistics in `file`, re-read when a load by another process rewrote them: `get()`
 * starts a look in the background at most once a second (a stat, or one HEAD on an object store)
 * and answers from memory meanwhile, so a search never waits for storage.
 */
export function termStatsReader(file: SideFile): TermStatsReader {
  let cached: { tag: string | undefined; stats: TermStats } | undefined;
  let checkedAt = 0;
  let running: Promise<void> | undefined;
  const refresh = async () => {
    checkedAt = Date.now();
    const tag = await file.tag();
    if (tag === undefined || (cached && cached.tag === tag)) return;
    const text = await file.read();
    if (text !== undefined) cached = { tag, stats: JSON.parse(text) as TermStats };
  };
  return {
    get() {
      if (!running && Date.now() - checkedAt >= 1000) {
        running = refresh()
          .catch(() => {}) // keep the last statistics; the next look tries again
          .finally(() => (running = undefined));
      }
      return cached?.stats;
    },
    refresh: () => (running ??= refresh().finally(() => (running = undefined))),
    set(stats, tag) {
      cached = { tag, stats };
    },
  };
}

// --- internal ---

function termCounter() {
  const counts = new Map<string, number>();
  const titleCounts = new Map<string, number>();
  const pairs = new Map<string, number>();
  const names = new Set<string>();
  let docs = 0;
  return {
    add(row: TermRow) {
      docs++;
      const terms = splitRankTerms(row.rank_terms);
      for (const token of terms.text) counts.set(token, (counts.get(token) ?? 0) + 1);
      for (const token of terms.title) titleCounts.set(token, (titleCounts.get(token) ?? 0) + 1);
      // The title's words are stored in their order (a repeated word at its first place): neighbours there are neighbours in the title.
      for (let t = 1; t < terms.title.length; t++) {
        const pair = `${terms.title[t - 1]} ${terms.title[t]}`;
        pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
      }
      if (row.company_name) for (const word of foldedWords(String(row.company_name))) names.add(word);
      for (const tag of row.tag_keys) for (const word of foldedWords(String(tag))) names.add(word);
    },
    stats(): TermStats {
      return { docs, df: atLeast(counts, MIN_DF), names: [...names].sort(), titleDf: atLeast(titleCounts, MIN_DF), pairs: atLeast(pairs, MIN_DF) };
    },
  };
}

function atLeast(counts: Map<string, number>, min: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of counts) if (n >= min) out[key] = n;
  return out;
}
