import { describe, expect, test } from "bun:test";
import { compactSalary, formatResults } from "../../../cli/commands/search.ts";
import { maskKey } from "../../../cli/client.ts";
import { cellText, colorEnabled, createStyle, renderTable, terminalWidth, truncate } from "../../../cli/format.ts";
import { createProgress, formatDuration, renderProgress } from "../../../cli/progress.ts";
import type { JobResult } from "../../../shared/job.ts";

const job = (over: Partial<JobResult>): JobResult => ({
  score: 0.9, id: "j1", job_title: "Engineer", company_name: "Acme", city: "Berlin", publish_time: "2026-03-01 10:00:00",
  base_salary: "90000.00-120000.00 USD/YEAR", job_url: "https://x/1", job_tags: [], data_source: "indeed", cluster_id: "j1", ...over,
});

describe("colors", () => {
  test.each([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: "1" }, false],
    [true, { NO_COLOR: "" }, true],
    [false, { FORCE_COLOR: "1" }, true],
    [false, { FORCE_COLOR: "" }, false],
    [true, { FORCE_COLOR: "0" }, false],
    [false, { FORCE_COLOR: "1", NO_COLOR: "1" }, false],
    [true, { TERM: "dumb" }, false],
  ])("tty=%p env=%p → %p", (isTTY, env, expected) => {
    expect(colorEnabled({ isTTY }, env)).toBe(expected);
  });

  test("on a TTY the table is colored, and stripping the colors gives the plain table", () => {
    const results = [job({}), job({ score: 0.1, company_name: undefined })];
    const colored = formatResults(results, { style: createStyle(true) });
    expect(colored).toContain("\x1b[1m");
    expect(colored).toContain("\x1b[32m0.900\x1b[39m");
    expect(Bun.stripANSI(colored)).toBe(formatResults(results));
  });

  test("terminal width: the TTY's columns, else COLUMNS, else 100", () => {
    expect(terminalWidth({ isTTY: true, columns: 132 }, {})).toBe(132);
    expect(terminalWidth({ isTTY: false }, { COLUMNS: "72" })).toBe(72);
    expect(terminalWidth({ isTTY: false }, {})).toBe(100);
    expect(terminalWidth({ isTTY: false }, { COLUMNS: "wide" })).toBe(100);
  });
});

describe("tables", () => {
  test("CJK and emoji cells keep the columns aligned", () => {
    const table = renderTable([{ header: "city" }, { header: "n", align: "right" }, { header: "note" }], [
      ["北京", "6", "a"],
      ["Zürich", "12", "b"],
      ["👩‍💻 remote", "3", "c"],
    ]);
    const lines = table.split("\n");
    const noteAt = Bun.stringWidth(lines[0]!) - 4;
    for (const line of lines) expect(Bun.stringWidth(line)).toBe(noteAt + 1 + (line === lines[0] ? 3 : 0));
  });

  test("truncate counts display cells and never splits a character", () => {
    expect(truncate("北京市朝阳区", 7)).toBe("北京市…");
    expect(Bun.stringWidth(truncate("北京市朝阳区", 6))).toBeLessThanOrEqual(6);
    expect(truncate("Zürich", 6)).toBe("Zürich");
    expect(truncate("Zürich", 4)).toBe("Zür…");
    expect(truncate("👩‍💻👩‍💻👩‍💻", 5)).toBe("👩‍💻👩‍💻…");
  });

  test("fits the width: shrinking columns give up cells, the others keep theirs", () => {
    const long = "Senior Staff Software Engineer, Distributed Systems and Infrastructure";
    const results = [job({ job_title: long, company_name: "Some Very Long Company Name GmbH & Co. KG", city: "San Francisco" })];
    for (const width of [60, 80, 100]) {
      const lines = formatResults(results, { width }).split("\n");
      for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(width);
      expect(lines[1]).toContain("2026-03-01");
      expect(lines[1]).toContain("0.900");
      expect(lines[1]).toContain("…");
    }
    // The title keeps about twice the share of the other shrinking columns.
    const row = formatResults(results, { width: 80 }).split("\n")[1]!;
    expect(row).toBe("1  Senior Staff Softwar…  Some Very…  San Franc…  2026-03-01  90,000–120…  0.900");
  });

  test("control characters in data cannot break lines or inject escapes", () => {
    expect(cellText("Nurse\n\tnight\x1b[31m shift")).toBe("Nurse night [31m shift");
    const table = formatResults([job({ job_title: "Evil\x1b]0;title\x07\nrow" })]);
    expect(table).not.toContain("\x1b");
    expect(table.split("\n")).toHaveLength(2);
  });

  test("salaries read compactly", () => {
    expect(compactSalary("90000.00-120000.00 USD/YEAR")).toBe("90,000–120,000 USD/year");
    expect(compactSalary("25.50-25.50 EUR/HOUR")).toBe("25.5 EUR/hour");
    expect(compactSalary("something else")).toBe("something else");
  });
});

test("keys are masked to their id", () => {
  expect(maskKey("jsk_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBe("jsk_0123456789abcdef_…");
  expect(maskKey("some-other-secret-value")).toBe("som…");
  expect(maskKey("short")).toBe("…");
});

describe("progress", () => {
  test("a line with bar, counts, rate and ETA that fits the terminal", () => {
    expect(renderProgress(250, 1000, 5)).toBe(`[${"#".repeat(8)}${".".repeat(22)}] 250/1000 25% 50/s ETA 15s`);
    expect(renderProgress(0, 1000, 0)).toContain("ETA --");
    expect(renderProgress(1000, 1000, 10)).toContain("100% 100/s ETA 0s");
    for (const columns of [20, 40, 80]) expect(renderProgress(123_456, 1_000_000, 61, columns).length).toBeLessThan(columns);
  });

  test.each([[42, "42s"], [185, "3m05s"], [3720, "1h02m"], [0.2, "1s"]])("duration %p → %p", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  test("draws on a TTY only, and ends its line", () => {
    const written: string[] = [];
    const stream = (isTTY: boolean) => ({ isTTY, columns: 80, write: (s: string) => written.push(s) }) as unknown as NodeJS.WriteStream;
    const quiet = createProgress(stream(false));
    quiet.update(1, 2);
    quiet.finish();
    expect(written).toEqual([]);

    const bar = createProgress(stream(true));
    bar.update(1, 10);
    bar.update(2, 10); // within 100 ms of the last: skipped
    bar.update(10, 10); // the last is always drawn
    bar.finish();
    expect(written).toHaveLength(3);
    expect(written[0]).toStartWith("\r[");
    expect(written[1]).toContain("10/10 100%");
    expect(written[2]).toBe("\n");
  });
});
