import { defineCommand, renderUsage, runCommand, runMain, type CommandDef } from "citty";
import pkg from "../package.json" with { type: "json" };
import { AppError } from "../shared/errors.ts";
import { EXAMPLES } from "./examples.ts";
import { colorEnabled } from "./format.ts";

/**
 * Exit codes: 0 success; 1 the command failed (the line `error [CODE]: message` says why);
 * 2 the command line itself was wrong (usage is printed).
 */
const main = defineCommand({
  meta: {
    name: "jobsearch",
    version: pkg.version,
    description: "Semantic job search: query the service, load data, inspect DATA_DIR, manage API keys.",
  },
  subCommands: {
    search: () => import("./commands/search.ts").then((m) => m.default),
    cities: () => import("./commands/cities.ts").then((m) => m.default),
    job: () => import("./commands/job.ts").then((m) => m.default),
    delete: () => import("./commands/delete.ts").then((m) => m.default),
    similar: () => import("./commands/similar.ts").then((m) => m.default),
    match: () => import("./commands/match.ts").then((m) => m.default),
    saved: () => import("./commands/saved.ts").then((m) => m.default),
    ingest: () => import("./commands/ingest.ts").then((m) => m.default),
    stats: () => import("./commands/stats.ts").then((m) => m.default),
    backup: () => import("./commands/backup.ts").then((m) => m.default),
    restore: () => import("./commands/restore.ts").then((m) => m.default),
    keys: () => import("./commands/keys.ts").then((m) => m.default),
    oauth: () => import("./commands/oauth.ts").then((m) => m.default),
    config: () => import("./commands/config.ts").then((m) => m.default),
    model: () => import("./commands/model.ts").then((m) => m.default),
  },
});

const rawArgs = process.argv.slice(2);
const wantsUsage = rawArgs.length === 0 || rawArgs.some((arg) => arg === "--help" || arg === "-h" || arg === "--version");
if (wantsUsage) {
  await runMain(main, { rawArgs: rawArgs.length === 0 ? ["--help"] : rawArgs, showUsage: showUsageWithExamples });
} else {
  try {
    await runCommand(main, { rawArgs });
  } catch (error) {
    process.exitCode = report(error);
  }
}

// --- internal ---

async function showUsageWithExamples(cmd: CommandDef<any>, parent?: CommandDef<any>): Promise<void> {
  const name = async (c?: CommandDef<any>) => (typeof c?.meta === "function" ? await c.meta() : await c?.meta)?.name;
  const own = await name(cmd);
  const above = await name(parent);
  const path = above && above !== "jobsearch" ? `${above} ${own}` : own ?? "jobsearch";
  const examples = EXAMPLES[path] ?? [];
  // citty colors its usage unless NO_COLOR is exactly "1"; ours follows the CLI's rule (TTY, NO_COLOR, FORCE_COLOR).
  const usage = await renderUsage(cmd, parent);
  const text = colorEnabled() ? usage : Bun.stripANSI(usage);
  console.log(examples.length === 0 ? text : `${text}\n\nExamples:\n${examples.map((e) => `  ${e}`).join("\n")}\n`);
}

function report(error: unknown): number {
  if (error instanceof AppError) {
    const retry = error.retryAfter === undefined ? "" : ` (retry in ${error.retryAfter} s)`;
    console.error(`error [${error.code}]: ${error.message}${retry}`);
    return 1;
  }
  if (error instanceof Error && error.name === "CLIError") {
    console.error(`error [USAGE]: ${error.message} (see --help)`);
    return 2;
  }
  console.error(`error [FAILED]: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}
