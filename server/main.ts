import { loadConfig } from "./config.ts";
import { createLogger, defaultLogFormat } from "./log.ts";
import { exitOnSignals } from "./shutdown.ts";
import { startServer } from "./start.ts";

try {
  const config = loadConfig();
  const format = defaultLogFormat(config.logFormat);
  const color = format === "pretty" && Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
  const log = createLogger(config.logLevel, undefined, { format, color });
  const server = await startServer(config, log);
  exitOnSignals(() => server.stop(), log);
} catch (error) {
  // Configuration and start-up problems are the operator's to fix: the message, not a stack.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
