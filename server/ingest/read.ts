import { extname } from "node:path";
import { genericMapper, type ColumnMap } from "./columns.ts";
import { readCsvHeader, readCsvRecords } from "./csv.ts";
import { isJobSpyHeader, jobSpyMapper } from "./jobspy.ts";

/** One raw record of an input file; `ref` says where it stands (`line 12`, `record 3`). */
export interface RawRecord {
  ref: string;
  value?: unknown;
  /** Set when the record could not even be parsed (or, for CSV, mapped onto the posting fields). */
  parseError?: string;
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
 * Reads every record of a file: a `.jsonl`, `.jsonl.gz` or `.ndjson` file (one JSON object a line),
 * a `.json(.gz)` array, or a `.csv(.gz)` file, generic or JobSpy's (see csv.ts, columns.ts, jobspy.ts).
 * A line or row that cannot be read becomes a record with `parseError`, so one bad line never hides
 * the others. Throws for a missing file, an unknown extension, a `.json` file that is not an array,
 * or a CSV header that cannot be mapped.
 */
export async function readRecords(path: string, options: ReadOptions = {}): Promise<RawRecord[]> {
  if (!(await Bun.file(path).exists())) throw new Error(`no such file: ${path}`);
  const format = options.format ?? (await detectFormat(path));
  if (options.map !== undefined && Object.keys(options.map).length > 0 && format !== "csv") {
    throw new Error(`--map applies to the csv format only (this file is read as ${format})`);
  }
  if (format === "jobspy") return readCsvRecords(path, jobSpyMapper);
  if (format === "csv") return readCsvRecords(path, genericMapper(options.map ?? {}));
  const bytes = await Bun.file(path).bytes();
  const text = new TextDecoder().decode(path.endsWith(".gz") ? Bun.gunzipSync(bytes) : bytes);
  return format === "json" ? readArray(text, path) : readLines(text);
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

function readLines(text: string): RawRecord[] {
  const records: RawRecord[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const ref = `line ${i + 1}`;
    try {
      records.push({ ref, value: JSON.parse(line) });
    } catch {
      records.push({ ref, parseError: "not valid JSON" });
    }
  }
  return records;
}

function readArray(text: string, path: string): RawRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${path} must hold a JSON array of postings`);
  return parsed.map((value, i) => ({ ref: `record ${i + 1}`, value }));
}
