import type { JobResult } from "../../shared/job.ts";
import type { SearchRequest } from "../../shared/search.ts";
import { LRUCache } from "lru-cache";

/**
 * Pages already computed, by request and table version: a repeated search (the same words, filters
 * and page, which popular queries and paging back are) costs a lookup instead of a search. A load
 * makes a new table version, so a page is never served from before the data changed. `basis` is
 * what else the page was ranked with (the term statistics, which a load writes just after its last
 * commit): a page ranked with another basis is not served. Bounded in bytes (estimated from the
 * results' text), least recently used out first.
 */
export interface ResultCache {
  get(version: number, request: SearchRequest, basis?: object): JobResult[] | undefined;
  set(version: number, request: SearchRequest, results: JobResult[], basis?: object): void;
  readonly stats: { hits: number; misses: number; bytes: number; entries: number };
}

export function createResultCache(maxBytes: number): ResultCache {
  const pages = new LRUCache<string, { results: JobResult[]; basis: object | undefined }>({ maxSize: Math.max(1, maxBytes) });
  let hits = 0;
  let misses = 0;
  let currentVersion = -1;

  return {
    stats: {
      get hits() { return hits; },
      get misses() { return misses; },
      get bytes() { return pages.calculatedSize; },
      get entries() { return pages.size; },
    },
    get(version, request, basis) {
      const page = pages.get(cacheKey(version, request));
      const results = page !== undefined && page.basis === basis ? page.results : undefined;
      if (results === undefined) misses++;
      else hits++;
      return results;
    },
    set(version, request, results, basis) {
      if (maxBytes <= 0) return;
      // Pages of older versions can never be asked for again.
      if (version !== currentVersion) {
        pages.clear();
        currentVersion = version;
      }
      const bytes = estimateBytes(results);
      if (bytes <= maxBytes / 4) pages.set(cacheKey(version, request), { results, basis }, { size: Math.max(1, bytes) });
    },
  };
}

// --- internal ---

/**
 * The whole parsed request: parseSearchRequest builds it in declaration order, so a parameter added
 * to shared/search-params.ts changes the key without being listed here.
 */
function cacheKey(version: number, request: SearchRequest): string {
  return JSON.stringify([version, request]);
}

/** Characters of text plus a fixed allowance per result for keys, numbers and object overhead. */
function estimateBytes(results: JobResult[]): number {
  let bytes = 256;
  for (const result of results) {
    bytes += 400;
    for (const value of Object.values(result)) {
      if (typeof value === "string") bytes += value.length * 2;
      else if (Array.isArray(value)) for (const item of value) bytes += String(item).length * 2 + 16;
    }
  }
  return bytes;
}
