import { setPriority } from "node:os";
import { defineCommand } from "citty";
import { invalidParameter } from "../../shared/errors.ts";
import { MAPPABLE_FIELDS, parseColumnMap, type ColumnMap } from "../../server/ingest/columns.ts";
import { formatSummary, ingestRecords, StrictIngestError, type IngestDeps, type IngestOptions, type IngestProblem, type Records } from "../../server/ingest/ingest.ts";
import { replaceSources } from "../../server/ingest/lifecycle.ts";
import { detectFormat, INPUT_FORMATS, openRecords, SUPPORTED_FORMATS, type InputFormat } from "../../server/ingest/read.ts";
import { validateRecord } from "../../server/ingest/validate.ts";
import { describeHolder, openWriteLock } from "../../server/store/write-lease.ts";
import { localConfig, openLocalStore } from "../local.ts";
import { createProgress, createTicker } from "../progress.ts";
import { note } from "../format.ts";

const SHOWN_PROBLEMS = 20;
/** The nice value of a load: below a server's default 0. */
const LOAD_PRIORITY = 10;

export default defineCommand({
  meta: {
    name: "ingest",
    description: `Load postings into DATA_DIR (upsert by id). Files: ${SUPPORTED_FORMATS.join(", ")}.`,
  },
  args: {
    file: { type: "positional", description: "File of postings", required: true },
    strict: { type: "boolean", description: "Abort before writing anything if any record is invalid", default: false },
    format: {
      type: "string",
      description: "jsonl, json, csv or jobspy (default: from the extension; a .csv with JobSpy's columns is jobspy)",
    },
    map: {
      type: "string",
      description: `csv: fill a field from a column, field=column (repeatable). Fields: ${MAPPABLE_FIELDS.join(", ")}`,
    },
    "batch-size": { type: "string", description: "Postings per commit (default 2000); a killed load keeps its whole batches" },
    "replace-source": {
      type: "boolean",
      default: false,
      description: "Also remove each source's postings that the file lacks; all in one commit (refuses to remove over half of a source without --force)",
    },
    force: { type: "boolean", default: false, description: "With --replace-source: remove even more than half of a source's postings" },
    wait: {
      type: "boolean",
      default: true,
      description: "Wait while another load (or index build) writes to the table",
      negativeDescription: "Refuse at once (exit 1) while another load writes to the table",
    },
  },
  async run({ args, rawArgs }) {
    const map = columnMap(rawArgs);
    const format = args.format === undefined ? await announce(args.file) : checkFormat(args.format);
    if (Object.keys(map).length > 0 && format !== "csv") {
      throw usageError(`--map applies to --format csv only (${args.file} is read as ${format})`);
    }
    const config = localConfig();
    const records = await openRecords(args.file, { format, map });
    // Before the model loads, a file whose start is unreadable (a CSV header, a .json that is no array) fails at
    // once, and one without a valid posting writes nothing (not even the empty table of a new DATA_DIR).
    await requirePosting(args.file, records);
    // A server on the same machine keeps the CPU first (threads started from here on inherit this).
    setPriority(LOAD_PRIORITY);
    const { store, embedder } = await openLocalStore(config);
    const lock = await openWriteLock(config.table, config.redisUrl);
    const progress = createProgress();
    let ticker: ReturnType<typeof createTicker> | undefined;
    try {
      const load = args["replace-source"]
        ? (deps: IngestDeps, input: Records, options: IngestOptions) => replaceSources(deps, input, { ...options, force: args.force })
        : ingestRecords;
      const summary = await load({ store, embedder, lock: lock.lock }, records, {
        strict: args.strict,
        ...(args["batch-size"] === undefined ? {} : { batchSize: batchSize(args["batch-size"]) }),
        onProgress: progress.update,
        wait: args.wait,
        onWait: (holder) =>
          note(`waiting for the ${holder ? describeHolder(holder) : "write in progress"} to finish (--no-wait refuses instead)`),
        vectorIndexMinRows: config.vectorIndexMinRows,
        onIndex: (work, rows) => {
          progress.finish();
          ticker = createTicker(`${work === "build" ? "building" : "rebuilding"} the vector index over ${rows} postings (searches go on meanwhile)`);
        },
      });
      ticker?.finish();
      progress.finish();
      printProblems(summary.problems, summary.invalid);
      console.log(formatSummary(summary));
    } catch (error) {
      if (!(error instanceof StrictIngestError)) throw error;
      printProblems(error.problems, error.count);
      throw error;
    } finally {
      ticker?.finish();
      store.close();
      lock.close();
    }
  },
});

// --- internal ---

/** Every `--map field=column` / `--map=field=column` (citty keeps only the last of a repeated option). */
function columnMap(rawArgs: string[]): ColumnMap {
  const entries: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === "--map") entries.push(rawArgs[++i] ?? "");
    else if (arg.startsWith("--map=")) entries.push(arg.slice("--map=".length));
  }
  try {
    return parseColumnMap(entries);
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

function checkFormat(value: string): InputFormat {
  if ((INPUT_FORMATS as readonly string[]).includes(value)) return value as InputFormat;
  throw usageError(`--format must be one of ${INPUT_FORMATS.join(", ")}, not "${value}"`);
}

/** The format from the file's extension and header; a CSV's is said on stderr, since the header decided it. */
async function announce(file: string): Promise<InputFormat> {
  const format = await detectFormat(file);
  if (format === "jobspy") note("format: jobspy (JobSpy's columns in the header; --format csv reads it as a generic CSV)");
  else if (format === "csv") note("format: csv (columns named like the fields, or --map field=column)");
  return format;
}

/** An error main.ts reports as a wrong command line (exit code 2). */
function usageError(message: string): Error {
  const error = new Error(message);
  error.name = "CLIError";
  return error;
}

function batchSize(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw invalidParameter("--batch-size must be a positive integer");
  return Number(value);
}

/** Reads up to the first valid posting; INVALID_PARAMETER (exit 1) when the file has none, its problems printed first. */
async function requirePosting(file: string, records: Records): Promise<void> {
  const problems: IngestProblem[] = [];
  let invalid = 0;
  for await (const record of records) {
    const checked = validateRecord(record);
    if (checked.ok) return;
    invalid++;
    if (problems.length < SHOWN_PROBLEMS) problems.push({ ref: record.ref, problem: checked.problem });
  }
  printProblems(problems, invalid);
  const what = invalid === 0 ? "holds no postings (no records, only blank lines or nothing)" : `holds no valid posting (${invalid} invalid record(s))`;
  throw invalidParameter(`${file} ${what}; nothing was written`);
}

function printProblems(problems: IngestProblem[], count: number): void {
  for (const { ref, problem } of problems.slice(0, SHOWN_PROBLEMS)) note(`skipped ${ref}: ${problem}`);
  if (count > SHOWN_PROBLEMS) note(`… and ${count - SHOWN_PROBLEMS} more invalid records`);
}
