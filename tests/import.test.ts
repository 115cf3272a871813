/**
 * Importing CSV: the RFC 4180 reader, the JobSpy mapping (location, salary, tags), generic CSV
 * with --map, and end to end: the real CLI ingests tests/support/fixtures/jobspy.csv and a generic CSV into
 * a temp DATA_DIR that a real server then searches.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { genericMapper, normalizeDateTime, parseColumnMap } from "../server/ingest/columns.ts";
import { parseCsv, readCsvHeader, readCsvRecords, type CsvRow } from "../server/ingest/csv.ts";
import { formatSalary, isJobSpyHeader, JOBSPY_SIGNATURE, mapJobSpyRow } from "../server/ingest/jobspy.ts";
import { countryCode, parseLocation, usState } from "../server/ingest/location.ts";
import { detectFormat, readRecords } from "../server/ingest/read.ts";
import { validateRecord } from "../server/ingest/validate.ts";
import { ROOT, runCli, startTestServer, tempDir, type TestServer } from "./support/helpers.ts";

const FIXTURE = join(ROOT, "tests/support/fixtures/jobspy.csv");

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

describe("locations", () => {
  test.each([
    ["San Francisco, CA, US", { city: "San Francisco", country: "US", remote: false }],
    ["New York, NY", { city: "New York", country: "US", remote: false }],
    ["Austin, TX, USA", { city: "Austin", country: "US", remote: false }],
    ["Dover, DE", { city: "Dover", country: "US", remote: false }],
    ["Washington, DC", { city: "Washington", country: "US", remote: false }],
    ["Atlanta, Georgia", { city: "Atlanta", country: "US", remote: false }],
    ["Texas, United States", { country: "US", remote: false }],
    ["CA", { country: "US", remote: false }],
    ["Berlin, Germany", { city: "Berlin", country: "DE", remote: false }],
    ["Berlin, Berlin, Germany", { city: "Berlin", country: "DE", remote: false }],
    ["London, England, UK", { city: "London", country: "GB", remote: false }],
    ["London, England", { city: "London", country: "GB", remote: false }],
    ["Toronto, ON, CA", { city: "Toronto", country: "CA", remote: false }],
    ["Toronto, ON", { city: "Toronto", remote: false }],
    ["Paris, FR", { city: "Paris", country: "FR", remote: false }],
    ["Bengaluru, Karnataka, India", { city: "Bengaluru", country: "IN", remote: false }],
    ["Zürich, Switzerland", { city: "Zürich", country: "CH", remote: false }],
    ["Singapore", { country: "SG", remote: false }],
    ["Remote", { remote: true }],
    ["Remote, US", { country: "US", remote: true }],
    ["Austin, TX (Remote)", { city: "Austin", country: "US", remote: true }],
    ["Denver, CO (Hybrid)", { city: "Denver", country: "US", remote: false }],
    ["", { remote: false }],
  ])("%p", (text, expected) => {
    expect(parseLocation(text)).toEqual(expected);
  });

  test("every country JobSpy's Indeed search offers, by its name", () => {
    const names: Record<string, string> = {
      Argentina: "AR", Australia: "AU", Austria: "AT", Bahrain: "BH", Belgium: "BE", Brazil: "BR", Canada: "CA", Chile: "CL",
      China: "CN", Colombia: "CO", "Costa Rica": "CR", "Czech Republic": "CZ", Denmark: "DK", Ecuador: "EC", Egypt: "EG",
      Finland: "FI", France: "FR", Germany: "DE", Greece: "GR", "Hong Kong": "HK", Hungary: "HU", India: "IN", Indonesia: "ID",
      Ireland: "IE", Israel: "IL", Italy: "IT", Japan: "JP", Kuwait: "KW", Luxembourg: "LU", Malaysia: "MY", Mexico: "MX",
      Morocco: "MA", Netherlands: "NL", "New Zealand": "NZ", Nigeria: "NG", Norway: "NO", Oman: "OM", Pakistan: "PK",
      Panama: "PA", Peru: "PE", Philippines: "PH", Poland: "PL", Portugal: "PT", Qatar: "QA", Romania: "RO",
      "Saudi Arabia": "SA", Singapore: "SG", "South Africa": "ZA", "South Korea": "KR", Spain: "ES", Sweden: "SE",
      Switzerland: "CH", Taiwan: "TW", Thailand: "TH", Turkey: "TR", "Türkiye": "TR", Ukraine: "UA",
      "United Arab Emirates": "AE", UK: "GB", "United Kingdom": "GB", USA: "US", "United States": "US", Uruguay: "UY",
      Venezuela: "VE", Vietnam: "VN",
    };
    for (const [name, code] of Object.entries(names)) {
      expect([name, countryCode(name)]).toEqual([name, code]);
      expect([name, countryCode(name.toLowerCase())]).toEqual([name, code]);
    }
  });

  test("codes are uppercase two-letter ISO codes; lowercase words are not codes; states by name or abbreviation", () => {
    expect(countryCode("DE")).toBe("DE");
    expect(countryCode("UK")).toBe("GB");
    expect(countryCode("in")).toBeUndefined();
    expect(countryCode("QQ")).toBeUndefined();
    expect(countryCode("Atlantis")).toBeUndefined();
    expect(countryCode("Côte d’Ivoire")).toBe("CI");
    expect(countryCode("Bosnia and Herzegovina")).toBe("BA");
    expect(usState("CA")).toBe("CA");
    expect(usState("new york")).toBe("NY");
    expect(usState("ZZ")).toBeUndefined();
  });
});

describe("JobSpy mapping", () => {
  test("salary: <min>-<max> <CURRENCY>/<PERIOD> with two decimals, as in the shared data", () => {
    expect(formatSalary("165000.0", "210000.0", "USD", "yearly")).toBe("165000.00-210000.00 USD/YEAR");
    expect(formatSalary("42.5", "55", "usd", "hourly")).toBe("42.50-55.00 USD/HOUR");
    expect(formatSalary("7000", "8000", "", "monthly")).toBe("7000.00-8000.00 USD/MONTH");
    expect(formatSalary("900", "1100", "EUR", "weekly")).toBe("900.00-1100.00 EUR/WEEK");
    expect(formatSalary("200", "", "GBP", "daily")).toBe("200.00-200.00 GBP/DAY");
    expect(formatSalary("", "150000", "USD", "Yearly")).toBe("150000.00-150000.00 USD/YEAR");
    expect(formatSalary("200000", "150000", "USD", "yearly")).toBe("150000.00-200000.00 USD/YEAR");
    expect(formatSalary("", "", "USD", "yearly")).toBeUndefined();
    expect(formatSalary("", "", "", "")).toBeUndefined();
    expect(formatSalary("lots", "", "USD", "yearly")).toEqual({ problem: 'min_amount must be a number, not "lots"' });
    expect(formatSalary("10", "20", "USD", "fortnightly")).toEqual({ problem: expect.stringContaining('not "fortnightly"') });
    expect(formatSalary("10", "20", "USD", "")).toEqual({ problem: expect.stringContaining("interval is empty") });
    expect(formatSalary("10", "20", "$", "hourly")).toEqual({ problem: expect.stringContaining("currency must be") });
  });

  const base = {
    id: "in-1", site: "indeed", job_url: "https://www.indeed.com/viewjob?jk=1", title: "Nurse", company: "Acme",
    location: "Austin, TX, US", date_posted: "2026-05-01", job_type: "", interval: "", min_amount: "", max_amount: "",
    currency: "", is_remote: "", job_level: "", skills: "", description: "Night shifts.",
  };

  test("maps a row onto the posting fields", () => {
    const mapped = mapJobSpyRow({
      ...base, job_type: "fulltime, contract", interval: "yearly", min_amount: "90000.0", max_amount: "110000.0",
      currency: "USD", is_remote: "True", job_level: "Mid-Senior level", skills: "Python, SQL, python",
    });
    expect(mapped).toEqual({
      value: {
        id: "in-1", job_title: "Nurse", company_name: "Acme", city: "Austin", country: "US",
        publish_time: "2026-05-01 00:00:00", base_salary: "90000.00-110000.00 USD/YEAR",
        job_url: "https://www.indeed.com/viewjob?jk=1", job_tags: ["Python", "SQL", "fulltime", "contract", "remote"],
        data_source: "indeed", seniority_level: "senior", employment_type: "FULL_TIME", job_description: "Night shifts.",
      },
    });
  });

  test("unknown or empty fields stay unknown; the id comes from job_url when there is none", () => {
    const mapped = mapJobSpyRow({ ...base, id: "", company: "", location: "", site: "LinkedIn", job_level: "Not Applicable" });
    if (!("value" in mapped)) throw new Error(mapped.problem);
    expect(mapped.value).toMatchObject({ company_name: null, city: null, country: null, base_salary: null, job_tags: [], data_source: "linkedin", seniority_level: null, employment_type: null });
    const checked = validateRecord({ ref: "line 2", value: mapped.value });
    expect(checked.ok && checked.record.id).toMatch(/^url-[0-9a-f]{16}$/);
  });

  const mappings: [Record<string, string>, Record<string, unknown>][] = [
    [{ job_type: "parttime" }, { employment_type: "PART_TIME" }],
    [{ job_type: "internship", job_level: "Internship" }, { employment_type: "INTERN", seniority_level: "intern" }],
    [{ job_type: "contract" }, { employment_type: "CONTRACTOR" }],
    [{ job_level: "Entry level" }, { seniority_level: "junior" }],
    [{ job_level: "Associate" }, { seniority_level: "mid" }],
    [{ job_level: "Director" }, { seniority_level: "director" }],
    [{ job_level: "Executive" }, { seniority_level: "executive" }],
    [{ location: "Remote", is_remote: "False" }, { city: null, country: null, job_tags: ["remote"] }],
    [{ date_posted: "2026-05-01 08:30:00" }, { publish_time: "2026-05-01 08:30:00" }],
    [{ description: "Use snake\\\\_case \\\\- please" }, { job_description: "Use snake\\_case \\- please" }],
  ];
  test.each(mappings.map(([change, expected]) => [JSON.stringify(change), change, expected] as const))("%s", (_, change, expected) => {
    const mapped = mapJobSpyRow({ ...base, ...change });
    if (!("value" in mapped)) throw new Error(mapped.problem);
    expect(mapped.value).toMatchObject(expected);
  });

  const refused: [Record<string, string>, string][] = [
    [{ site: "glassdoor" }, 'site must be indeed or linkedin, not "glassdoor"'],
    [{ site: "" }, "site is empty (must be indeed or linkedin)"],
    [{ description: " " }, "description is empty (for LinkedIn, scrape with linkedin_fetch_description=True)"],
    [{ date_posted: "" }, "date_posted is empty (the posting date is required)"],
    [{ date_posted: "05/01/2026" }, 'date_posted must be a date like 2024-01-15, not "05/01/2026"'],
    [{ min_amount: "10", interval: "biweekly" }, 'interval must be yearly, monthly, weekly, daily or hourly, not "biweekly"'],
  ];
  test.each(refused.map(([change, problem]) => [JSON.stringify(change), change, problem] as const))("%s is refused", (_, change, problem) => {
    expect(mapJobSpyRow({ ...base, ...change })).toEqual({ problem });
  });

  test("a JobSpy header is recognised by its columns, in any order and among others", () => {
    expect(isJobSpyHeader([...JOBSPY_SIGNATURE].reverse().concat("emails"))).toBe(true);
    expect(isJobSpyHeader(JOBSPY_SIGNATURE.filter((column) => column !== "site"))).toBe(false);
    expect(isJobSpyHeader(["job_title", "job_url", "publish_time"])).toBe(false);
  });

  test("the fixture is detected as JobSpy; a gzipped copy too; --format jobspy needs JobSpy's columns", async () => {
    expect(await detectFormat(FIXTURE)).toBe("jobspy");
    const dir = tempDir();
    await Bun.write(join(dir, "jobs.csv.gz"), Bun.gzipSync(await Bun.file(FIXTURE).bytes()));
    expect(await detectFormat(join(dir, "jobs.csv.gz"))).toBe("jobspy");
    expect((await readRecords(join(dir, "jobs.csv.gz"))).length).toBe(15);
    await Bun.write(join(dir, "other.csv"), "job_url,publish_time\nhttps://x,2026-01-01\n");
    expect(await detectFormat(join(dir, "other.csv"))).toBe("csv");
    await expect(readRecords(join(dir, "other.csv"), { format: "jobspy" })).rejects.toThrow(/not a JobSpy CSV: no column site, date_posted, description/);
    await expect(readRecords(FIXTURE, { map: { city: "location" } })).rejects.toThrow(/--map applies to the csv format only/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("generic CSV mapping", () => {
  test("parseColumnMap takes field=column and refuses unknown fields and bad syntax", () => {
    expect(parseColumnMap(["job_title=Title", "job_url = Link", "job_description=Text = body"])).toEqual({
      job_title: "Title", job_url: "Link", job_description: "Text = body",
    });
    expect(() => parseColumnMap(["salary=Pay"])).toThrow(/unknown field "salary" \(fields: id, job_title/);
    expect(() => parseColumnMap(["job_title"])).toThrow(/--map takes field=column/);
    expect(() => parseColumnMap(["=Title"])).toThrow(/--map takes field=column/);
  });

  test("normalizeDateTime: dates, ISO 8601 with zones, and anything else as it is", () => {
    expect(normalizeDateTime("2026-05-01")).toBe("2026-05-01 00:00:00");
    expect(normalizeDateTime("2026-05-01T09:30:00")).toBe("2026-05-01 09:30:00");
    expect(normalizeDateTime("2026-05-01T09:30")).toBe("2026-05-01 09:30:00");
    expect(normalizeDateTime("2026-05-01T09:30:00.123Z")).toBe("2026-05-01 09:30:00");
    expect(normalizeDateTime("2026-05-01T01:30:00+02:00")).toBe("2026-04-30 23:30:00");
    expect(normalizeDateTime("2026-05-01 09:30:00")).toBe("2026-05-01 09:30:00");
    expect(normalizeDateTime("May 1st")).toBe("May 1st");
  });

  test("columns named like fields map by default; --map adds and overrides; location fills city and country", () => {
    const mapper = genericMapper({ job_title: "Role", location: "Where", job_tags: "Skills" })([
      "Role", "job_title", "job_url", "publish_time", "data_source", "job_description", "Where", "country", "Skills",
    ]);
    const row = {
      Role: "Chef", job_title: "ignored", job_url: "https://x/1", publish_time: "2026-05-01", data_source: "mysite",
      job_description: "Cook.", Where: "Lyon, France (Remote)", country: "", Skills: "French cuisine; HACCP, haccp",
    };
    expect(mapper(row)).toEqual({
      value: {
        job_title: "Chef", city: "Lyon", country: "FR", publish_time: "2026-05-01 00:00:00", job_url: "https://x/1",
        job_tags: ["French cuisine", "HACCP", "remote"], data_source: "mysite", job_description: "Cook.",
      },
    });
    expect(mapper({ ...row, country: "germany", Where: "" })).toMatchObject({ value: { country: "DE" } });
    expect(mapper({ ...row, country: "de", Where: "Berlin" })).toMatchObject({ value: { city: "Berlin", country: "DE" } });
  });

  test("a header without a column for a required field, or a --map to a missing column, is refused at once", () => {
    expect(() => genericMapper({})(["job_url", "job_title"])).toThrow(
      /no column for publish_time, data_source, job_description: name columns like the fields or give --map publish_time=COLUMN \(the header has job_url, job_title\)/,
    );
    expect(() => genericMapper({ job_url: "Link" })(["url"])).toThrow(/--map job_url=Link: no such column \(the header has url\)/);
    // a unique case-insensitive match is taken
    expect(() => genericMapper({ job_url: "link", publish_time: "DATE", data_source: "src", job_description: "text" })(["Link", "date", "Src", "Text"])).not.toThrow();
  });
});

describe("end to end: the CLI ingests CSV files that a real server then searches", () => {
  let dataDir: string;
  let t: TestServer;
  let ingested: Awaited<ReturnType<typeof runCli>>;
  let generic: Awaited<ReturnType<typeof runCli>>;
  let genericFile: string;

  const GENERIC = [
    "\ufeffTitle,Employer,Link,Posted,Where,Source,Text,Tags,Pay",
    'Barista,"Bean & Leaf, Ltd.",https://jobs.example/bean/1,2026-05-03T09:00:00Z,"Manchester, England, United Kingdom",careers-page,"Make coffee, ""properly"".\r\nEarly shifts.","coffee, customer service",11.50-13.00 GBP/HOUR',
    "Line Cook,Osteria Nord,https://jobs.example/osteria/2,2026-05-04,\"Munich, Bavaria, Germany\",careers-page,Prep and cook pasta for 80 covers.,cooking,",
    "Sous Chef,Osteria Nord,https://jobs.example/osteria/3,2026-05-05,Munich,careers-page,Run the pass on weekends.,,lots of money",
  ].join("\r\n");

  beforeAll(async () => {
    dataDir = tempDir();
    ingested = await runCli(["ingest", FIXTURE], { DATA_DIR: dataDir });
    genericFile = join(dataDir, "export.csv");
    await Bun.write(genericFile, GENERIC);
    const maps = ["job_title=Title", "company_name=Employer", "job_url=Link", "publish_time=Posted", "location=Where", "data_source=Source", "job_description=Text", "job_tags=Tags", "base_salary=Pay"];
    generic = await runCli(["ingest", genericFile, ...maps.flatMap((map) => ["--map", map])], { DATA_DIR: dataDir });
    t = await startTestServer({ dataDir });
  });
  afterAll(() => t?.stop());

  async function search(body: Record<string, unknown>) {
    const response = await fetch(`${t.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": t.apiKey },
      body: JSON.stringify({ top_k: 100, ...body }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { total: number; results: Record<string, any>[] };
  }

  async function posting(jobUrl: string, body: Record<string, unknown>) {
    const { results } = await search({ detail: "full", ...body });
    const found = results.find((result) => result.job_url === jobUrl);
    if (!found) throw new Error(`${jobUrl} not found among ${results.map((r) => r.job_url).join(", ")}`);
    return found;
  }

  test("the JobSpy ingest names the bad CSV lines and ends with the usual summary line", () => {
    expect(ingested.code).toBe(0);
    expect(ingested.stderr).toContain("format: jobspy (JobSpy's columns in the header");
    expect(ingested.stderr).toContain('skipped line 30: site must be indeed or linkedin, not "glassdoor"');
    expect(ingested.stderr).toContain("skipped line 31: description is empty (for LinkedIn, scrape with linkedin_fetch_description=True)");
    expect(ingested.stdout).toMatch(/^ingested 13 new, 0 updated, 2 skipped in \d+\.\d s \(\d+\/s\)$/m);
  });

  test("re-running is a no-op and --strict writes nothing, as for JSONL", async () => {
    const again = await runCli(["ingest", FIXTURE], { DATA_DIR: dataDir });
    expect(again.stdout).toMatch(/^ingested 0 new, 0 updated, 15 skipped in /m);
    const strict = await runCli(["ingest", "--strict", "--format", "jobspy", FIXTURE], { DATA_DIR: dataDir });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("skipped line 30: site must be indeed or linkedin");
    expect(strict.stderr).toContain("error [FAILED]: 2 invalid record(s); --strict given, nothing was written");
  });

  test("both sites are searchable as data sources", async () => {
    expect((await search({ q: "job", source: "indeed" })).total).toBe(7);
    expect((await search({ q: "job", source: "linkedin" })).total).toBe(6);
  });

  test("a multi-line posting keeps every mapped field, its quotes, line breaks and backslashes", async () => {
    const job = await posting("https://www.indeed.com/viewjob?jk=3f2a9c41d07b5e16", { q: "backend engineer python", city: "San Francisco", country: "US" });
    expect(job).toMatchObject({
      job_title: "Senior Backend Engineer (Python)", company_name: "Northwind Analytics", city: "San Francisco",
      publish_time: "2026-05-02 00:00:00", base_salary: "165000.00-210000.00 USD/YEAR", data_source: "indeed",
      employment_type: "FULL_TIME", job_tags: ["Python", "PostgreSQL", "AWS", "fulltime"],
    });
    expect(job.seniority_level).toBeUndefined();
    expect(job.job_description).toStartWith("**About the role**\n\nNorthwind Analytics");
    expect(job.job_description).toContain('design the "ingest" and pricing APIs');
    expect(job.job_description).toContain("tested code \\- we review");
  });

  test.each([
    ["https://www.linkedin.com/jobs/view/4013550127", { q: "frontend react developer", country: "DE" },
      { city: "Berlin", company_name: "Brightpath GmbH", base_salary: "60000.00-75000.00 EUR/YEAR", seniority_level: "mid", data_source: "linkedin" }],
    ["https://www.linkedin.com/jobs/view/4009934418", { q: "machine learning engineer", country: "GB" },
      { city: "London", base_salary: "70000.00-90000.00 GBP/YEAR", seniority_level: "senior" }],
    ["https://ca.indeed.com/viewjob?jk=0d9e8f7a6b5c4d3e", { q: "devops kubernetes", country: "CA" },
      { city: "Toronto", base_salary: "95000.00-120000.00 CAD/YEAR", employment_type: "FULL_TIME", job_tags: ["fulltime", "contract"] }],
    ["https://in.indeed.com/viewjob?jk=a4b5c6d7e8f90123", { q: "site reliability", country: "IN" },
      { city: "Bengaluru", base_salary: "2500000.00-4000000.00 INR/YEAR" }],
    ["https://au.indeed.com/viewjob?jk=f0e1d2c3b4a59687", { q: "chef", country: "AU" },
      { city: "Sydney", company_name: "Harbour & Vine", base_salary: "95000.00-110000.00 AUD/YEAR" }],
    ["https://www.linkedin.com/jobs/view/4011120934", { q: "product manager payments", country: "NL" },
      { city: "Amsterdam", seniority_level: "director", publish_time: "2026-04-25 00:00:00" }],
    ["https://www.indeed.com/viewjob?jk=8b71e0c2a95d4f03", { q: "registered nurse", city: "Austin", country: "US" },
      { base_salary: "42.50-55.00 USD/HOUR", employment_type: "PART_TIME", job_tags: ["parttime"] }],
    ["https://www.linkedin.com/jobs/view/4015501288", { q: "software intern", city: "Seattle", country: "US" },
      { base_salary: "7000.00-8000.00 USD/MONTH", employment_type: "INTERN", seniority_level: "intern" }],
    ["https://www.indeed.com/viewjob?jk=71a6b3c8d2e4f590", { q: "warehouse", city: "Columbus", country: "US" },
      { base_salary: "17.00-17.00 USD/HOUR" }],
  ])("%s is found with its country or city filter and mapped", async (jobUrl, query, expected) => {
    expect(await posting(jobUrl, query)).toMatchObject(expected);
  });

  test("a row without salary has no base_salary; remote rows and state-only locations have no city", async () => {
    const lumen = await posting("https://www.linkedin.com/jobs/view/4012867395", { q: "data engineer spark", city: "New York" });
    expect(lumen.base_salary).toBeUndefined();
    expect(lumen).toMatchObject({ seniority_level: "senior", employment_type: "FULL_TIME", data_source: "linkedin" });
    const parcelly = await posting("https://www.indeed.com/viewjob?jk=c5d0e7f1b2a39648", { q: "customer support" });
    expect(parcelly.city).toBeUndefined();
    expect(parcelly.job_tags).toEqual(["fulltime", "remote"]);
    const orchid = await posting("https://www.linkedin.com/jobs/view/4016678012", { q: "data scientist", country: "US" });
    expect(orchid.city).toBeUndefined();
    expect(orchid.job_tags).toContain("remote");
  });

  test("a generic CSV with --map: BOM, CRLF, quoted fields, location and ISO times mapped; a bad salary is named by line", async () => {
    expect(generic.code).toBe(0);
    expect(generic.stderr).toContain("format: csv");
    expect(generic.stderr).toContain("skipped line 5: base_salary must look like 120000.00-150000.00 USD/YEAR");
    expect(generic.stdout).toMatch(/^ingested 2 new, 0 updated, 1 skipped in /m);
    const barista = await posting("https://jobs.example/bean/1", { q: "barista coffee", country: "GB", source: "careers-page" });
    expect(barista).toMatchObject({
      job_title: "Barista", company_name: "Bean & Leaf, Ltd.", city: "Manchester", publish_time: "2026-05-03 09:00:00",
      base_salary: "11.50-13.00 GBP/HOUR", job_tags: ["coffee", "customer service"], data_source: "careers-page",
      job_description: 'Make coffee, "properly".\nEarly shifts.',
    });
    const cook = await posting("https://jobs.example/osteria/2", { q: "line cook pasta", city: "Munich", country: "DE" });
    expect(cook).toMatchObject({ company_name: "Osteria Nord", job_tags: ["cooking"] });
    expect(cook.base_salary).toBeUndefined();
  });

  test("command-line mistakes exit 2; a CSV the columns do not fit exits 1 before loading anything", async () => {
    const wrongMap = await runCli(["ingest", FIXTURE, "--map", "city=location"], { DATA_DIR: dataDir });
    expect(wrongMap.code).toBe(2);
    expect(wrongMap.stderr).toContain("--map applies to --format csv only");
    const wrongFormat = await runCli(["ingest", FIXTURE, "--format", "xml"], { DATA_DIR: dataDir });
    expect(wrongFormat.code).toBe(2);
    expect(wrongFormat.stderr).toContain('--format must be one of jsonl, json, csv, jobspy, not "xml"');
    const unknownField = await runCli(["ingest", genericFile, "--map", "salary=Pay"], { DATA_DIR: dataDir });
    expect(unknownField.code).toBe(2);
    expect(unknownField.stderr).toContain('unknown field "salary"');
    const unmapped = await runCli(["ingest", genericFile], { DATA_DIR: dataDir });
    expect(unmapped.code).toBe(1);
    expect(unmapped.stderr).toContain("error [FAILED]: no column for job_url, publish_time, data_source, job_description");
    expect(unmapped.stderr).not.toContain("embedding model");
  });
});
