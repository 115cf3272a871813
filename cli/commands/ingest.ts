import { defineCommand } from "citty";
import { invalidParameter } from "../../shared/errors.ts";
import { formatSummary, ingestFile, StrictIngestError, type IngestProblem } from "../../server/ingest/ingest.ts";
import { SUPPORTED_FORMATS } from "../../server/ingest/read.ts";
import { loadConfig } from "../../server/config.ts";
import { openLocalStore } from "../local.ts";
import { createProgress } from "../progress.ts";

const SHOWN_PROBLEMS = 20;

export default defineCommand({
  meta: {
    name: "ingest",
    description: `Load postings into DATA_DIR (upsert by id). Formats: ${SUPPORTED_FORMATS.join(", ")}.`,
  },
  args: {
    file: { type: "positional", description: "File of postings", required: true },
    strict: { type: "boolean", description: "Abort before writing anything if any record is invalid", default: false },
    "batch-size": { type: "string", description: "Postings per commit (default 2000); a killed load keeps its whole batches" },
  },
  async run({ args }) {
    const config = loadConfig();
    const { store, embedder } = await openLocalStore(config);
    const progress = createProgress();
    try {
      const summary = await ingestFile({ store, embedder }, args.file, {
        strict: args.strict,
        ...(args["batch-size"] === undefined ? {} : { batchSize: batchSize(args["batch-size"]) }),
        onProgress: progress.update,
      });
      progress.finish();
      printProblems(summary.problems);
      console.log(formatSummary(summary));
    } catch (error) {
      if (!(error instanceof StrictIngestError)) throw error;
      printProblems(error.problems);
      throw error;
    } finally {
      store.close();
    }
  },
});

// --- internal ---

function batchSize(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw invalidParameter("--batch-size must be a positive integer");
  return Number(value);
}

function printProblems(problems: IngestProblem[]): void {
  for (const { ref, problem } of problems.slice(0, SHOWN_PROBLEMS)) console.error(`skipped ${ref}: ${problem}`);
  if (problems.length > SHOWN_PROBLEMS) console.error(`… and ${problems.length - SHOWN_PROBLEMS} more invalid records`);
}
