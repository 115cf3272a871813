import { loadConfig } from "./config.ts";
import { createLogger, defaultLogFormat } from "./log.ts";
import { startServer } from "./start.ts";

try {
  const config = loadConfig();
  const format = defaultLogFormat(config.logFormat);
  const color = format === "pretty" && Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
  const log = createLogger(config.logLevel, undefined, { format, color });
  const server = await startServer(config, log);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, async () => {
      log.info("shutting down", { signal });
      await server.stop();
      process.exit(0);
    });
  }
} catch (error) {
  // Configuration and start-up problems are the operator's to fix: the message, not a stack.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
