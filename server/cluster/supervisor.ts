import { join } from "node:path";
import type { RateLimiter } from "../auth/rate-limit.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { serveLimiter, type LimiterReply, type LimiterRequest } from "./ipc-limiter.ts";

/*
 * SERVER_PROCESSES > 1: the primary (server/main.ts) binds the port with SO_REUSEPORT, then starts
 * the other processes here (server/worker.ts), which bind the same port; the kernel spreads connections
 * over all of them. The primary alone seeds demo data, creates the first key and maintains the ANN
 * index; it answers the workers' rate-limit questions when there is no Redis (ipc-limiter.ts).
 */

/** What a worker tells the primary. */
export type WorkerMessage = LimiterRequest | { t: "ready" };
/** What the primary tells a worker: its configuration first, then rate-limit answers. */
export type PrimaryMessage = LimiterReply | { t: "start"; config: Config };

export interface Workers {
  /** The workers running now. */
  pids(): number[];
  /** SIGTERM to each (they finish their requests in flight), resolved once all exited; none is restarted. */
  stop(): Promise<void>;
}

/**
 * Starts `config.processes - 1` workers on `config.port` (the port the primary bound, so PORT=0
 * works) and resolves once each is listening. A worker that exits later is started again after a
 * back-off (0.5 s, doubling up to 30 s, back to 0.5 s once one ran for a minute); the slots it held
 * in flight are given back. Rejects, with the others stopped, when one exits before it was ready:
 * the same configuration would fail the same way again.
 */
export async function startWorkers(config: Config, limiter: RateLimiter, log: Logger): Promise<Workers> {
  const running = new Map<number, Bun.Subprocess>();
  let stopping = false;

  const launch = (index: number, failures: number): Promise<void> => {
    const { promise: ready, resolve, reject } = Promise.withResolvers<void>();
    let readyAt: number | undefined;
    const proc = Bun.spawn([process.execPath, WORKER_SCRIPT], {
      stdin: "ignore",
      stdout: "inherit",
      stderr: "inherit",
      serialization: "json",
      ipc(message: WorkerMessage) {
        if (message.t !== "ready") return void limits.handle(message);
        readyAt = performance.now();
        resolve();
      },
    });
    const limits = serveLimiter(limiter, (reply) => {
      try {
        proc.send(reply);
      } catch {
        // it exited while its question was being answered; its exit gives its slots back
      }
    });
    running.set(index, proc);
    proc.send({ t: "start", config } satisfies PrimaryMessage);
    void proc.exited.then((code) => {
      limits.release();
      running.delete(index);
      reject(new Error(`server process ${index + 2} of ${config.processes} exited (code ${code}) before it was ready`));
      if (stopping) return;
      const tries = readyAt !== undefined && performance.now() - readyAt >= STABLE_MS ? 0 : failures + 1;
      const delay = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, tries - 1));
      log.warn("server process exited; starting another", { exited: proc.pid, code, signal: proc.signalCode, in_ms: delay });
      setTimeout(() => {
        if (!stopping) launch(index, tries).catch(() => {}); // its exit schedules the next attempt
      }, delay);
    });
    return ready;
  };

  const workers: Workers = {
    pids: () => [...running.values()].map((proc) => proc.pid),
    async stop() {
      stopping = true;
      const procs = [...running.values()];
      for (const proc of procs) proc.kill("SIGTERM");
      // A worker gives up waiting for its requests after 10 s itself; this is for one that hangs.
      const timer = setTimeout(() => procs.forEach((proc) => proc.kill("SIGKILL")), KILL_AFTER_MS);
      await Promise.all(procs.map((proc) => proc.exited));
      clearTimeout(timer);
    },
  };
  try {
    await Promise.all(Array.from({ length: config.processes - 1 }, (_, index) => launch(index, 0)));
  } catch (error) {
    await workers.stop();
    throw error;
  }
  return workers;
}

// --- internal ---

const WORKER_SCRIPT = join(import.meta.dir, "../worker.ts");
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** A worker that served this long counts as healthy: the next restart starts at the first back-off. */
const STABLE_MS = 60_000;
const KILL_AFTER_MS = 12_000;
