import { serverLogger } from "./log.ts";
import { exitOnSignals } from "./shutdown.ts";
import { startServer } from "./start.ts";
import { createIpcRateLimiter } from "./cluster/ipc-limiter.ts";
import type { PrimaryMessage, WorkerMessage } from "./cluster/supervisor.ts";

/*
 * A server process the primary started (cluster/supervisor.ts). Its configuration comes over the IPC channel,
 * not the environment, so it serves exactly what the primary serves, on the primary's port. It stops
 * gracefully on SIGTERM from the primary, and on its own when the primary is gone (the channel
 * closes). Ctrl-C in a terminal reaches the whole process group: the primary relays it as SIGTERM,
 * so SIGINT is ignored here rather than counted as a first signal (a second would exit at once).
 */

process.on("SIGINT", () => {});
const send = (message: WorkerMessage) => process.send!(message);
let receive: ((message: PrimaryMessage) => void) | undefined;
let stopNow: ((reason: string) => void) | undefined;

process.on("message", (message: PrimaryMessage) => {
  if (message.t === "start") void start(message.config);
  else receive?.(message);
});
process.on("disconnect", () => {
  if (stopNow) stopNow("the primary process is gone");
  else process.exit(1);
});

async function start(config: Extract<PrimaryMessage, { t: "start" }>["config"]): Promise<void> {
  const log = serverLogger(config, { pid: process.pid });
  try {
    // With Redis every process uses it directly; without, the primary's memory holds the one count.
    const ipc = config.rateLimit.redisUrl ? undefined : createIpcRateLimiter(send, log);
    if (ipc) receive = (message) => message.t !== "start" && ipc.receive(message);
    const server = await startServer(config, log, { role: "worker", ...(ipc ? { limiter: ipc.limiter } : {}) });
    stopNow = exitOnSignals(() => server.stop(), log, ["SIGTERM"]);
    send({ t: "ready" });
  } catch (error) {
    log.error("server process could not start", { error });
    process.exit(1);
  }
}
