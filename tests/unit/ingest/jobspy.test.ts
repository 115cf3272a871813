/** The JobSpy CSV mapping: salary, fields, employment and seniority, refused rows, and detecting the format. */
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { formatSalary, isJobSpyHeader, JOBSPY_SIGNATURE, mapJobSpyRow } from "../../../server/ingest/jobspy.ts";
import { detectFormat, readRecords } from "../../../server/ingest/read.ts";
import { validateRecord } from "../../../server/ingest/validate.ts";
import { JOBSPY_CSV, tempDir } from "../../support/helpers.ts";

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
    expect(await detectFormat(JOBSPY_CSV)).toBe("jobspy");
    const dir = tempDir();
    await Bun.write(join(dir, "jobs.csv.gz"), Bun.gzipSync(await Bun.file(JOBSPY_CSV).bytes()));
    expect(await detectFormat(join(dir, "jobs.csv.gz"))).toBe("jobspy");
    expect((await readRecords(join(dir, "jobs.csv.gz"))).length).toBe(15);
    await Bun.write(join(dir, "other.csv"), "job_url,publish_time\nhttps://x,2026-01-01\n");
    expect(await detectFormat(join(dir, "other.csv"))).toBe("csv");
    await expect(readRecords(join(dir, "other.csv"), { format: "jobspy" })).rejects.toThrow(/not a JobSpy CSV: no column site, date_posted, description/);
    await expect(readRecords(JOBSPY_CSV, { map: { city: "location" } })).rejects.toThrow(/--map applies to the csv format only/);
    rmSync(dir, { recursive: true, force: true });
  });
});
