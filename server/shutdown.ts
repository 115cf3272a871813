import type { Logger } from "./log.ts";

/** How long a graceful stop may take before the process exits anyway. */
const GRACE_MS = 10_000;
const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Stops gracefully on the first SIGTERM or SIGINT: `stop` should stop accepting connections,
 * let in-flight requests finish and close what it opened; the process then exits 0. A second
 * signal, or a stop that takes longer than 10 s, exits at once (128 + signal number, or 1).
 */
export function exitOnSignals(stop: () => Promise<void>, log: Logger): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) {
        log.warn("second signal: exiting without waiting for requests in flight", { signal });
        process.exit(128 + SIGNAL_NUMBERS[signal]);
      }
      stopping = true;
      log.info("shutting down: no new connections, finishing requests in flight", { signal });
      const started = performance.now();
      const deadline = setTimeout(() => {
        log.warn("graceful stop took too long; exiting", { ms: GRACE_MS });
        process.exit(1);
      }, GRACE_MS);
      stop().then(
        () => {
          clearTimeout(deadline);
          log.info("stopped", { ms: Math.round(performance.now() - started) });
          process.exit(0);
        },
        (error) => {
          log.error("could not stop cleanly", { error });
          process.exit(1);
        },
      );
    });
  }
}
