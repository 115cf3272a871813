import type { Logger } from "./log.ts";

/** How long a graceful stop may take before the process exits anyway. */
const GRACE_MS = 10_000;
const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;
type Signal = keyof typeof SIGNAL_NUMBERS;

/**
 * Stops gracefully on the first of `signals` (SIGTERM and SIGINT by default): `stop` should stop
 * accepting connections, let in-flight requests finish and close what it opened; the process then
 * exits 0. A second signal, or a stop that takes longer than 10 s, exits at once (128 + signal
 * number, or 1). Returns a function that starts the same graceful stop for another reason (once).
 */
export function exitOnSignals(stop: () => Promise<void>, log: Logger, signals: Signal[] = ["SIGINT", "SIGTERM"]): (reason: string) => void {
  let stopping = false;
  const begin = (fields: Record<string, unknown>) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down: no new connections, finishing requests in flight", fields);
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
  };
  for (const signal of signals) {
    process.on(signal, () => {
      if (stopping) {
        log.warn("second signal: exiting without waiting for requests in flight", { signal });
        process.exit(128 + SIGNAL_NUMBERS[signal]);
      }
      begin({ signal });
    });
  }
  return (reason) => begin({ reason });
}
