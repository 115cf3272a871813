import type * as lancedb from "@lancedb/lancedb";
import type { StoreReader } from "./store.ts";

/**
 * One table version per answer. The store's own table follows the latest version (it looks for
 * other processes' writes every READ_CONSISTENCY_MS), so two reads of one request could straddle a
 * load or a delete: a page from one version and its facets from the next. A request therefore reads
 * through a view: a handle checked out at the version current when the request began, whose every
 * read (nearest, keyword, facets, descriptions, postings) answers from that version. Views are
 * opened once per version and shared, so at any moment every endpoint reads the same version, and a
 * deleted or replaced posting leaves all of them at once.
 */
export function versionViews(latest: lancedb.Table, openAt: (version: number) => Promise<StoreReader>): () => Promise<StoreReader> {
  const views = new Map<number, Promise<StoreReader>>();
  return async () => {
    const version = await latest.version();
    let view = views.get(version);
    if (view === undefined) {
      view = openAt(version);
      views.set(version, view);
      // A failed opening (the version cleaned up meanwhile) is not kept: the next request opens again.
      view.catch(() => views.get(version) === view && views.delete(version));
      // Requests under way keep the older views they hold; new ones get this one.
      for (const held of [...views.keys()].sort((a, b) => a - b).slice(0, -KEPT_VERSIONS)) views.delete(held);
    }
    return view;
  };
}

/** Views kept open: the current version's and the one before (requests that began on it are finishing). */
const KEPT_VERSIONS = 2;
