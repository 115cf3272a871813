import { loadConfig } from "./config.ts";
import { createLogger } from "./log.ts";
import { startServer } from "./start.ts";

const config = loadConfig();
const log = createLogger(config.logLevel);
const server = await startServer(config, log);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    log.info("shutting down", { signal });
    await server.stop();
    process.exit(0);
  });
}
