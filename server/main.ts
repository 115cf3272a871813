import { loadConfig } from "./config.ts";
import { serverLogger } from "./log.ts";
import { exitOnSignals } from "./shutdown.ts";
import { startServer } from "./start.ts";

try {
  const config = loadConfig();
  // Several processes share one stderr: each line says which one wrote it.
  const log = serverLogger(config, config.processes > 1 ? { pid: process.pid } : undefined);
  const server = await startServer(config, log);
  exitOnSignals(() => server.stop(), log);
} catch (error) {
  // Configuration and start-up problems are the operator's to fix: the message, not a stack.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
