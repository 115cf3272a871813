import type { Logger } from "../log.ts";
import type { JobStore } from "./store.ts";

/** How often the server looks whether the table has grown past the ANN-index threshold. */
const CHECK_EVERY_MS = 30_000;

/**
 * Keeps the ANN index in place in the background: at start and then every 30 s, builds it once the
 * table holds `minRows` postings (later loads fold new rows in through `optimize()`). Searches are
 * never blocked: they read the previous table version until the index is committed.
 * Returns a stop function that waits for a build in flight.
 */
export function maintainVectorIndex(store: JobStore, minRows: number, log: Logger): () => Promise<void> {
  let running: Promise<void> | undefined;
  const check = () => {
    running ??= (async () => {
      try {
        const started = performance.now();
        if (await store.ensureVectorIndex(minRows)) {
          log.info("built the ANN index on the vectors", { ms: Math.round(performance.now() - started) });
        }
      } catch (error) {
        log.warn("could not build the ANN index; searches stay exact", { error });
      } finally {
        running = undefined;
      }
    })();
  };
  check();
  const timer = setInterval(check, CHECK_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await running;
  };
}
