import { defineCommand, runCommand, runMain } from "citty";
import pkg from "../package.json" with { type: "json" };
import { AppError } from "../shared/errors.ts";

/**
 * Exit codes: 0 success; 1 the command failed (the line `error [CODE]: message` says why);
 * 2 the command line itself was wrong (usage is printed).
 */
const main = defineCommand({
  meta: { name: "jobsearch", version: pkg.version, description: "Semantic job search: query the service, load data, manage API keys." },
  subCommands: {
    search: () => import("./commands/search.ts").then((m) => m.default),
    ingest: () => import("./commands/ingest.ts").then((m) => m.default),
    keys: () => import("./commands/keys.ts").then((m) => m.default),
    model: () => import("./commands/model.ts").then((m) => m.default),
  },
});

const rawArgs = process.argv.slice(2);
const wantsUsage = rawArgs.length === 0 || rawArgs.some((arg) => arg === "--help" || arg === "-h" || arg === "--version");
if (wantsUsage) {
  await runMain(main, { rawArgs: rawArgs.length === 0 ? ["--help"] : rawArgs });
} else {
  try {
    await runCommand(main, { rawArgs });
  } catch (error) {
    process.exitCode = report(error);
  }
}

// --- internal ---

function report(error: unknown): number {
  if (error instanceof AppError) {
    console.error(`error [${error.code}]: ${error.message}`);
    return 1;
  }
  if (error instanceof Error && error.name === "CLIError") {
    console.error(`error [USAGE]: ${error.message} (see --help)`);
    return 2;
  }
  console.error(`error [FAILED]: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}
