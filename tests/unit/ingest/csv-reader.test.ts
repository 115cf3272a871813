/** The RFC 4180 CSV reader: quoting, line ends, line numbers, chunking, and whole files (.csv, .csv.gz). */
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { parseCsv, readCsvHeader, readCsvRecords, type CsvRow } from "../../../server/ingest/csv.ts";
import { tempDir } from "../../support/helpers.ts";

async function rows(input: string | string[] | Buffer[]): Promise<CsvRow[]> {
  const out: CsvRow[] = [];
  for await (const row of parseCsv(Readable.from(typeof input === "string" ? [input] : input))) out.push(row);
  return out;
}

const fieldsOf = (all: CsvRow[]) => all.map((row) => ("fields" in row ? row.fields : row.problem));
const linesOf = (all: CsvRow[]) => all.map((row) => row.line);

describe("CSV reader (RFC 4180)", () => {
  test("quoted fields hold commas, doubled quotes and line breaks; rows are numbered by their first line", async () => {
    const all = await rows('a,b,c\n1,"x, y",3\n4,"say ""hi""\nand bye",6\n7,,"",\n');
    expect(fieldsOf(all)).toEqual([["a", "b", "c"], ["1", "x, y", "3"], ["4", 'say "hi"\nand bye', "6"], ["7", "", "", ""]]);
    expect(linesOf(all)).toEqual([1, 2, 3, 5]);
  });

  test("a BOM, CRLF, lone CR and mixed line ends; CRLF inside a field becomes \\n and counts as one line", async () => {
    const all = await rows('\ufeffa,b\r\n"one\r\ntwo",2\r\n3,4\n5,6\r7,8');
    expect(fieldsOf(all)).toEqual([["a", "b"], ["one\ntwo", "2"], ["3", "4"], ["5", "6"], ["7", "8"]]);
    expect(linesOf(all)).toEqual([1, 2, 4, 5, 6]);
  });

  test("blank lines are skipped but counted", async () => {
    const all = await rows("a,b\n\n1,2\r\n\r\n\r\n3,4\n\n");
    expect(fieldsOf(all)).toEqual([["a", "b"], ["1", "2"], ["3", "4"]]);
    expect(linesOf(all)).toEqual([1, 3, 6]);
  });

  test("a stray quote inside an unquoted field is text; an unclosed quote is a problem at the line it opens", async () => {
    expect(fieldsOf(await rows('a,b\n5" screen,2\n'))).toEqual([["a", "b"], ['5" screen', "2"]]);
    const all = await rows('a,b\n1,2\n3,"never closed\n4,5\n');
    expect(linesOf(all)).toEqual([1, 2, 3]);
    expect(all[2]).toEqual({ line: 3, problem: expect.stringContaining("a quoted field is never closed") });
  });

  test("any chunking gives the same rows, even one byte at a time through CRLFs and UTF-8 characters", async () => {
    const text = '\ufeffcity,note\r\n"Zürich","a\r\nb, ""c"""\r\nSão Paulo,日本語\r\n';
    const whole = await rows(text);
    const bytes = Buffer.from(text);
    const single = await rows([...bytes].map((byte) => Buffer.from([byte])));
    expect(single).toEqual(whole);
    expect(fieldsOf(whole)).toEqual([["city", "note"], ["Zürich", 'a\nb, "c"'], ["São Paulo", "日本語"]]);
    expect(linesOf(whole)).toEqual([1, 2, 4]);
  });

  test("an empty input has no rows", async () => {
    expect(await rows("")).toEqual([]);
    expect(await rows("\ufeff")).toEqual([]);
  });

  test("readCsvRecords: field-count mismatches are per-line problems, empty rows are skipped, .csv.gz works", async () => {
    const dir = tempDir();
    const file = join(dir, "t.csv.gz");
    await Bun.write(file, Bun.gzipSync("x,y\n1,2\n3\n,\n4,5,6\n7,8\n"));
    const records = await readCsvRecords(file, () => (row) => ({ value: row }));
    expect(records).toEqual([
      { ref: "line 2", value: { x: "1", y: "2" } },
      { ref: "line 3", parseError: "has 1 fields, the header has 2" },
      { ref: "line 5", parseError: "has 3 fields, the header has 2" },
      { ref: "line 6", value: { x: "7", y: "8" } },
    ]);
    expect(await readCsvHeader(file)).toEqual(["x", "y"]);
    rmSync(dir, { recursive: true, force: true });
  });

  test("readCsvRecords refuses an empty file and a header naming a column twice", async () => {
    const dir = tempDir();
    await Bun.write(join(dir, "empty.csv"), "");
    await Bun.write(join(dir, "twice.csv"), "a,b,a\n1,2,3\n");
    const identity = () => (row: Record<string, string>) => ({ value: row });
    await expect(readCsvRecords(join(dir, "empty.csv"), identity)).rejects.toThrow(/is empty/);
    await expect(readCsvRecords(join(dir, "twice.csv"), identity)).rejects.toThrow(/names column "a" twice/);
    rmSync(dir, { recursive: true, force: true });
  });

  test("streams a large file: 20,000 rows with multi-line fields, numbered exactly", async () => {
    const dir = tempDir();
    const file = join(dir, "big.csv");
    const body = Array.from({ length: 20_000 }, (_, i) => `${i},"line one of ${i}\nline two, with a comma"`).join("\r\n");
    await Bun.write(file, `n,text\r\n${body}\r\n`);
    const records = await readCsvRecords(file, () => (row) => ({ value: row }));
    expect(records).toHaveLength(20_000);
    expect(records.at(-1)).toEqual({ ref: `line ${2 + 2 * 19_999}`, value: { n: "19999", text: "line one of 19999\nline two, with a comma" } });
    rmSync(dir, { recursive: true, force: true });
  });
});
