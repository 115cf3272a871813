import { loadConfig } from "./config.ts";
import { serverLogger } from "./log.ts";
import { exitOnSignals } from "./shutdown.ts";

try {
  const config = loadConfig();
  // Loaded once the configuration holds: a bad variable is reported in ~0.1 s, not after ~1 s of
  // loading LanceDB, the web app and the search modules it will never use.
  const { startServer } = await import("./start.ts");
  // Several processes share one stderr: each line says which one wrote it.
  const log = serverLogger(config, config.processes > 1 ? { pid: process.pid } : undefined);
  const server = await startServer(config, log);
  exitOnSignals(() => server.stop(), log);
} catch (error) {
  // Configuration and start-up problems are the operator's to fix: the message, not a stack.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
