import { quoteValue } from "../../shared/errors.ts";
import { parseDateTime } from "../../shared/time.ts";
import type { RowMapper } from "./csv.ts";
import { parseLocation } from "../places/location.ts";

/**
 * The CSV that JobSpy (python-jobspy) writes with `jobs.to_csv(...)`, mapped onto posting fields.
 * docs/cli.md has the full table; in short: site → data_source, title/company/description/job_url as
 * they are, location → city + country, date_posted → publish_time, interval/min_amount/max_amount/
 * currency → base_salary, job_type → employment_type, job_level → seniority_level, and skills,
 * job_type and remote as job_tags. Other columns (emails, company_url, job_function, …) are ignored.
 */

/** The `site` values taken; any other makes the row invalid. */
export const JOBSPY_SITES = ["indeed", "linkedin"] as const;

/** Columns `--format jobspy` needs; the others may be missing (their fields are then unknown). */
export const JOBSPY_REQUIRED_COLUMNS = ["site", "job_url", "date_posted", "description"];

/** The columns that tell a JobSpy header from any other CSV when no format is given. */
export const JOBSPY_SIGNATURE = ["site", "job_url", "title", "company", "location", "date_posted", "interval", "min_amount", "max_amount", "description"];

/** True when a header has every column of {@link JOBSPY_SIGNATURE} (in any order, among others). */
export function isJobSpyHeader(columns: string[]): boolean {
  const have = new Set(columns);
  return JOBSPY_SIGNATURE.every((column) => have.has(column));
}

/** The row mapper for a JobSpy header; throws when a required column is missing. */
export function jobSpyMapper(columns: string[]): RowMapper {
  const missing = JOBSPY_REQUIRED_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length > 0) {
    throw new Error(`not a JobSpy CSV: no column ${missing.join(", ")} (the header has ${columns.join(", ") || "nothing"})`);
  }
  return mapJobSpyRow;
}

/** One JobSpy row as a posting, or the reason it cannot be one. */
export function mapJobSpyRow(row: Record<string, string>): { value: Record<string, unknown> } | { problem: string } {
  const text = (column: string) => unescapeBackslashes(row[column]?.trim() ?? "");
  const site = text("site").toLowerCase();
  if (!(JOBSPY_SITES as readonly string[]).includes(site)) {
    return { problem: site === "" ? "site is empty (must be indeed or linkedin)" : `site must be indeed or linkedin, not ${quoteValue(text("site"))}` };
  }
  const description = text("description");
  if (description === "") {
    return { problem: "description is empty (for LinkedIn, scrape with linkedin_fetch_description=True)" };
  }
  const published = jobSpyDate(text("date_posted"));
  if ("problem" in published) return published;
  const salary = formatSalary(text("min_amount"), text("max_amount"), text("currency"), text("interval"));
  if (typeof salary === "object") return salary;

  const location = parseLocation(text("location"));
  const jobTypes = splitList(text("job_type")).map((type) => type.toLowerCase());
  const remote = location.remote || /^(true|1|yes)$/i.test(text("is_remote"));
  const tags = unique([...splitList(text("skills")), ...jobTypes, ...(remote ? ["remote"] : [])]);
  const value: Record<string, unknown> = {
    job_title: text("title") || null,
    company_name: text("company") || null,
    city: location.city ?? null,
    country: location.country ?? null,
    publish_time: published.value,
    base_salary: salary ?? null,
    job_url: text("job_url"),
    job_tags: tags,
    data_source: site,
    seniority_level: SENIORITY[text("job_level").toLowerCase()] ?? null,
    employment_type: jobTypes.map((type) => EMPLOYMENT_TYPE[type]).find((type) => type !== undefined) ?? null,
    job_description: description,
  };
  if (text("id") !== "") value.id = text("id");
  return { value };
}

/**
 * `<min>-<max> <CURRENCY>/<PERIOD>` with two decimals, as in the shared data
 * (`120000.00-150000.00 USD/YEAR`). One amount alone stands for both ends; swapped amounts are put
 * in order; no currency means USD (JobSpy's default). Undefined when there is no amount; a problem
 * when an amount is not a number, the interval is unknown or missing, or the currency is not three letters.
 */
export function formatSalary(
  min: string, max: string, currency: string, interval: string,
): string | undefined | { problem: string } {
  if (min === "" && max === "") return undefined;
  const amounts: number[] = [];
  for (const [column, raw] of [["min_amount", min], ["max_amount", max]] as const) {
    if (raw === "") continue;
    const amount = Number(raw.replace(/,/g, ""));
    if (!Number.isFinite(amount) || amount < 0) return { problem: `${column} must be a number, not ${quoteValue(raw)}` };
    amounts.push(amount);
  }
  const period = PERIODS[interval.toLowerCase()];
  if (period === undefined) {
    return { problem: interval === "" ? "interval is empty but an amount is given (yearly, monthly, weekly, daily or hourly)" : `interval must be yearly, monthly, weekly, daily or hourly, not ${quoteValue(interval)}` };
  }
  const code = currency === "" ? "USD" : currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return { problem: `currency must be a three-letter code such as USD, not ${quoteValue(currency)}` };
  const low = Math.min(...amounts);
  const high = Math.max(...amounts);
  return `${low.toFixed(2)}-${high.toFixed(2)} ${code}/${period}`;
}

// --- internal ---

const PERIODS: Record<string, string> = { yearly: "YEAR", monthly: "MONTH", weekly: "WEEK", daily: "DAY", hourly: "HOUR" };

/** JobSpy's job types (the JobType enum) in the shared data's employment_type vocabulary. */
const EMPLOYMENT_TYPE: Record<string, string> = {
  fulltime: "FULL_TIME", parttime: "PART_TIME", contract: "CONTRACTOR", internship: "INTERN", temporary: "TEMPORARY",
};

/** LinkedIn's seniority levels (job_level) in the shared data's seniority_level vocabulary. */
const SENIORITY: Record<string, string> = {
  internship: "intern", "entry level": "junior", associate: "mid", "mid-senior level": "senior",
  director: "director", executive: "executive",
};

/** date_posted is a date (`2024-01-15`); a date and time is taken too. */
function jobSpyDate(raw: string): { value: string } | { problem: string } {
  if (raw === "") return { problem: "date_posted is empty (the posting date is required)" };
  const candidate = raw.replace("T", " ").replace(/(\.\d+)?Z?$/, "");
  const value = /^\d{4}-\d{2}-\d{2}$/.test(candidate) ? `${candidate} 00:00:00` : candidate;
  if (parseDateTime(value) === undefined) return { problem: `date_posted must be a date like 2024-01-15, not ${quoteValue(raw)}` };
  return { value };
}

/**
 * JobSpy's README writes its CSV with `escapechar="\\"`, which doubles every backslash in the
 * text; halving `\\` restores it (a single backslash, which such a file never has, is kept).
 */
function unescapeBackslashes(text: string): string {
  return text.includes("\\\\") ? text.replace(/\\\\/g, "\\") : text;
}

/** "fulltime, contract" → ["fulltime", "contract"]. */
function splitList(text: string): string[] {
  return text.split(",").map((item) => item.trim()).filter((item) => item !== "");
}

/** Keeps the first of items that differ only in case. */
function unique(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
