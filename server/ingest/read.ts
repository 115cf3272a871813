import { extname } from "node:path";
import { JSONParser } from "@streamparser/json";
import { genericMapper, type ColumnMap } from "./columns.ts";
import { csvRecords, readCsvHeader } from "./csv.ts";
import { inputBytes, lines, RECORD_MAX_BYTES } from "./input.ts";
import { isJobSpyHeader, jobSpyMapper } from "./jobspy.ts";

/** One raw record of an input file; `ref` says where it stands (`line 12`, `record 3`). */
export interface RawRecord {
  ref: string;
  value?: unknown;
  /** Set when the record could not even be parsed (or, for CSV, mapped onto the posting fields). */
  parseError?: string;
}

/**
 * The records of a file, read as a stream: iterating it again reads the file again, and
 * `fraction()` tells how much of the file the latest iteration has read (0–1).
 */
export interface RecordSource extends AsyncIterable<RawRecord> {
  fraction(): number;
}

export const SUPPORTED_FORMATS = [".jsonl", ".jsonl.gz", ".json", ".json.gz", ".ndjson", ".csv", ".csv.gz"];

/** How a file is read: JSON lines, a JSON array, a CSV with a header row, or JobSpy's CSV. */
export const INPUT_FORMATS = ["jsonl", "json", "csv", "jobspy"] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export interface ReadOptions {
  /** Default: from the extension, and for `.csv` from the header (JobSpy's columns → `jobspy`). */
  format?: InputFormat;
  /** For `csv`: which column fills which field (default: columns named like the fields). */
  map?: ColumnMap;
}

/**
 * The format of a file from its extension (`.jsonl`, `.ndjson` → jsonl; `.json` → json; `.csv` →
 * csv, each optionally `.gz`); a `.csv` whose header has JobSpy's columns is `jobspy`.
 * Throws for a missing file or an unknown extension.
 */
export async function detectFormat(path: string): Promise<InputFormat> {
  if (!(await Bun.file(path).exists())) throw new Error(`no such file: ${path}`);
  const kind = extensionKind(path);
  if (kind === "csv") return isJobSpyHeader(await readCsvHeader(path)) ? "jobspy" : "csv";
  if (kind === undefined) throw new Error(`unsupported file type: ${path} (expected one of ${SUPPORTED_FORMATS.join(", ")})`);
  return kind;
}

/**
 * The records of a file as a stream, one at a time, never the whole file in memory: a `.jsonl`,
 * `.jsonl.gz` or `.ndjson` file (one JSON object a line), a `.json(.gz)` array, or a `.csv(.gz)` file,
 * generic or JobSpy's (see csv.ts, columns.ts, jobspy.ts). A line or row that cannot be read becomes
 * a record with `parseError`, so one bad line never hides the others. Bounds (input.ts): a line or
 * record of at most 1 MiB, at most 4 GiB read, a `.gz` file expanding at most 100×; past one the
 * iteration throws. Throws at once for a missing file, an unknown extension or --map with another
 * format; while iterating, for a `.json` file that is not an array or a CSV header that cannot be mapped.
 */
export async function openRecords(path: string, options: ReadOptions = {}): Promise<RecordSource> {
  if (!(await Bun.file(path).exists())) throw new Error(`no such file: ${path}`);
  const format = options.format ?? (await detectFormat(path));
  if (options.map !== undefined && Object.keys(options.map).length > 0 && format !== "csv") {
    throw new Error(`--map applies to the csv format only (this file is read as ${format})`);
  }
  let progress = { read: 0, total: Bun.file(path).size };
  const open = (): AsyncIterable<RawRecord> => {
    if (format === "jobspy") return csvRecords(path, jobSpyMapper);
    if (format === "csv") return csvRecords(path, genericMapper(options.map ?? {}));
    const input = inputBytes(path);
    progress = input.progress;
    return format === "json" ? arrayRecords(input.chunks, path) : lineRecords(input.chunks);
  };
  return {
    [Symbol.asyncIterator]: () => open()[Symbol.asyncIterator](),
    fraction: () => (progress.total > 0 ? Math.min(1, progress.read / progress.total) : 1),
  };
}

/** Every record of a file at once (small files, tests); see {@link openRecords}. */
export async function readRecords(path: string, options: ReadOptions = {}): Promise<RawRecord[]> {
  return Array.fromAsync(await openRecords(path, options));
}

// --- internal ---

function extensionKind(path: string): "jsonl" | "json" | "csv" | undefined {
  const gzipped = path.toLowerCase().endsWith(".gz");
  const kind = extname(gzipped ? path.slice(0, -3) : path).toLowerCase();
  if (kind === ".jsonl" || kind === ".ndjson") return "jsonl";
  if (kind === ".json") return "json";
  if (kind === ".csv") return "csv";
  return undefined;
}

async function* lineRecords(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<RawRecord> {
  for await (const { number, text } of lines(chunks)) {
    const ref = `line ${number}`;
    if (text === undefined) {
      yield { ref, parseError: `longer than ${RECORD_MAX_BYTES / 1024 / 1024} MiB (a posting is far shorter: a wrong format or a damaged file?)` };
      continue;
    }
    const line = text.trim();
    if (line === "") continue;
    try {
      yield { ref, value: JSON.parse(line) };
    } catch {
      yield { ref, parseError: "not valid JSON" };
    }
  }
}

/** The elements of a top-level JSON array, parsed incrementally; each at most RECORD_MAX_BYTES. */
async function* arrayRecords(chunks: AsyncIterable<Uint8Array>, path: string): AsyncGenerator<RawRecord> {
  const parser = new JSONParser({ paths: ["$.*"], keepStack: false });
  const ready: unknown[] = [];
  let started = false;
  let count = 0;
  let sinceLast = 0;
  parser.onValue = ({ value }) => {
    ready.push(value);
    sinceLast = 0;
  };
  try {
    for await (const chunk of chunks) {
      if (!started) {
        const first = new TextDecoder().decode(chunk.subarray(0, 64)).trimStart()[0];
        if (first !== undefined && first !== "[") throw new Error(`${path} must hold a JSON array of postings`);
        started = first !== undefined;
      }
      sinceLast += chunk.length;
      parser.write(chunk);
      for (const value of ready.splice(0)) yield { ref: `record ${++count}`, value };
      if (sinceLast > RECORD_MAX_BYTES) {
        throw new Error(`${path}: record ${count + 1} is longer than ${RECORD_MAX_BYTES / 1024 / 1024} MiB (a posting is far shorter: a wrong format or a damaged file?)`);
      }
    }
    if (!started) throw new Error(`${path} must hold a JSON array of postings`);
    if (!parser.isEnded) parser.end();
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(path)) throw error;
    throw new Error(`${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const value of ready.splice(0)) yield { ref: `record ${++count}`, value };
}
