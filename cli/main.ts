import { defineCommand, renderUsage, runCommand, runMain, type CommandDef } from "citty";
import pkg from "../package.json" with { type: "json" };
import { AppError } from "../shared/errors.ts";
import { EXAMPLES } from "./examples.ts";

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
  const text = await renderUsage(cmd, parent);
  console.log(examples.length === 0 ? text : `${text}\n\nExamples:\n${examples.map((e) => `  ${e}`).join("\n")}\n`);
}

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
