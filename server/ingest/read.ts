import { extname } from "node:path";

/** One raw record of an input file; `ref` says where it stands (`line 12`, `record 3`). */
export interface RawRecord {
  ref: string;
  value?: unknown;
  /** Set when the record could not even be parsed. */
  parseError?: string;
}

export const SUPPORTED_FORMATS = [".jsonl", ".jsonl.gz", ".json", ".json.gz", ".ndjson"];

/**
 * Reads every record of a `.jsonl`, `.jsonl.gz`, `.ndjson` or `.json` (an array) file. A line that
 * is not JSON becomes a record with `parseError`, so one bad line never hides the others.
 * Throws for a missing file, an unknown extension or a `.json` file that is not an array.
 */
export async function readRecords(path: string): Promise<RawRecord[]> {
  const file = Bun.file(path);
  if (!(await file.exists())) throw new Error(`no such file: ${path}`);
  const gzipped = path.endsWith(".gz");
  const kind = extname(gzipped ? path.slice(0, -3) : path).toLowerCase();
  if (kind !== ".jsonl" && kind !== ".ndjson" && kind !== ".json") {
    throw new Error(`unsupported file type: ${path} (expected one of ${SUPPORTED_FORMATS.join(", ")})`);
  }
  const bytes = await file.bytes();
  const text = new TextDecoder().decode(gzipped ? Bun.gunzipSync(bytes) : bytes);
  return kind === ".json" ? readArray(text, path) : readLines(text);
}

// --- internal ---

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
