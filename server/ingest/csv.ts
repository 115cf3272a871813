import { pipeline, Readable, Transform } from "node:stream";
import { parse, type CsvError, type Options } from "csv-parse";
import { inputBytes, RECORD_MAX_BYTES } from "./input.ts";
import type { RawRecord } from "./read.ts";

/** One row of a CSV file, by the line it starts on; `problem` when the row could not be read. */
export type CsvRow = { line: number; fields: string[] } | { line: number; problem: string };

/** Turns one row (keyed by header column) into a posting, or says what is wrong with it. */
export type RowMapper = (row: Record<string, string>) => { value: Record<string, unknown> } | { problem: string };

/**
 * Streams CSV text (RFC 4180: quoted fields holding commas, doubled quotes and line breaks; a BOM;
 * CRLF, LF or CR line ends, even mixed) into rows, each with the line it starts on. Line breaks
 * inside fields come out as "\n". Blank lines are skipped. A stray quote inside an unquoted field is
 * kept as text; a quoted field that is never closed becomes a row with a `problem` (it runs to the
 * end of the file, so nothing follows it).
 */
export async function* parseCsv(input: Readable): AsyncGenerator<CsvRow> {
  let previousEnd = 0;
  let previousEmpty = 0;
  const skipped: CsvRow[] = [];
  // csv-parse reports where a record ends; it starts after the previous one and any blank lines.
  const startOf = (context: { lines: number; empty_lines: number }) => {
    const line = previousEnd + 1 + (context.empty_lines - previousEmpty);
    previousEnd = context.lines;
    previousEmpty = context.empty_lines;
    return line;
  };
  const options: Options<ParsedRow, string[]> = {
    bom: true,
    max_record_size: MAX_RECORD_CHARS,
    record_delimiter: "\n",
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (fields, context) => ({ line: startOf(context), fields, skipped: skipped.splice(0) }),
    on_skip: (error) => {
      if (error === undefined) return undefined;
      const context = error as CsvError & { lines: number; empty_lines: number };
      skipped.push({ line: startOf(context), problem: describe(context.code, context.message) });
      return undefined;
    },
  };
  // (csv-parse types on_record only with the columns option; the rows here are arrays)
  const parser = parse(options as unknown as Options);
  // csv-parse counts a CRLF inside a quoted field as two lines, so every line end becomes "\n" first.
  const stream = pipeline(input, lfLineEnds(), parser, () => {});
  try {
    for await (const row of stream as AsyncIterable<ParsedRow>) {
      yield* row.skipped;
      yield { line: row.line, fields: row.fields };
    }
    yield* skipped;
  } finally {
    stream.destroy();
  }
}

/** The rows of a `.csv` or `.csv.gz` file, within the input bounds of input.ts; see {@link parseCsv}. */
export function csvFileRows(path: string): AsyncGenerator<CsvRow> {
  return parseCsv(Readable.from(inputBytes(path).chunks));
}

/** The column names of a CSV file's first row (reads no further); empty for an empty file. */
export async function readCsvHeader(path: string): Promise<string[]> {
  for await (const row of csvFileRows(path)) {
    if ("fields" in row) return row.fields.map((name) => name.trim());
  }
  return [];
}

/** Every record of a CSV file at once (small files, tests); see {@link csvRecords}. */
export async function readCsvRecords(path: string, makeMapper: (columns: string[]) => RowMapper): Promise<RawRecord[]> {
  return Array.fromAsync(csvRecords(path, makeMapper));
}

/**
 * Streams a CSV file whose first row names the columns as one record per data row, each built by
 * the mapper that `makeMapper` returns for the header (it may throw to reject the whole file, e.g.
 * for a missing column). A row is referred to by the line it starts on (`line 7`); a row whose
 * field count differs from the header's, or that the mapper refuses, becomes a record with
 * `parseError`. Rows whose fields are all empty are skipped like blank lines.
 */
export async function* csvRecords(path: string, makeMapper: (columns: string[]) => RowMapper): AsyncGenerator<RawRecord> {
  let columns: string[] | undefined;
  let mapRow: RowMapper | undefined;
  for await (const row of csvFileRows(path)) {
    const ref = `line ${row.line}`;
    if ("problem" in row) {
      if (columns === undefined) throw new Error(`${path}: the header row (${ref}) is not valid CSV: ${row.problem}`);
      yield { ref, parseError: row.problem };
      continue;
    }
    if (columns === undefined) {
      columns = checkHeader(row.fields, path);
      mapRow = makeMapper(columns);
      continue;
    }
    if (row.fields.every((field) => field.trim() === "")) continue;
    if (row.fields.length !== columns.length) {
      yield { ref, parseError: `has ${row.fields.length} fields, the header has ${columns.length}` };
      continue;
    }
    const values: Record<string, string> = {};
    columns.forEach((column, i) => (values[column] = row.fields[i]!));
    const mapped = mapRow!(values);
    yield "value" in mapped ? { ref, value: mapped.value } : { ref, parseError: mapped.problem };
  }
  if (columns === undefined) throw new Error(`${path} is empty (a CSV file needs a header row)`);
}

// --- internal ---

/** A record as it leaves the parser, with the unreadable rows met since the previous one. */
interface ParsedRow {
  line: number;
  fields: string[];
  skipped: CsvRow[];
}

/** Longer rows are refused (csv-parse's guard against a wrong delimiter, raised from 128,000). */
const MAX_RECORD_CHARS = RECORD_MAX_BYTES;

function checkHeader(fields: string[], path: string): string[] {
  const columns = fields.map((name) => name.trim());
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column)) throw new Error(`${path}: the header names column "${column}" twice`);
    seen.add(column);
  }
  return columns;
}

/** Rewrites CRLF and lone CR line ends to LF, byte by byte (neither byte occurs inside a UTF-8 sequence). */
function lfLineEnds(): Transform {
  const CR = 0x0d;
  const LF = 0x0a;
  let afterCr = false;
  return new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      if (bytes.length === 0) return done();
      if (!afterCr && !bytes.includes(CR)) return done(null, bytes);
      const out = Buffer.allocUnsafe(bytes.length);
      let n = 0;
      for (const byte of bytes) {
        if (byte === LF && afterCr) {
          afterCr = false;
          continue;
        }
        afterCr = byte === CR;
        out[n++] = afterCr ? LF : byte;
      }
      done(null, out.subarray(0, n));
    },
  });
}

function describe(code: string, message: string): string {
  if (code === "CSV_QUOTE_NOT_CLOSED") return "not valid CSV: a quoted field is never closed (it runs to the end of the file)";
  return `not valid CSV: ${message}`;
}
